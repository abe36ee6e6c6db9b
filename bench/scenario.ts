/**
 * What a bench scenario is. One file per scenario (or per family of variants) under scenarios/, listed in
 * scenarios/index.ts; run.ts runs them against the sandbox through n8n's real engine (test/harness).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { NodeSettings } from '../test/harness';
import type { RateLimitSpec, RequestLogEntry, SandboxAdmin } from '../test/sandbox';

/** What one run of the node produced, as the client process (client.ts) reports it. */
export interface ClientResult {
	/** From the start of n8n's execution to its end (the harness and n8n loaded before). */
	wallMs: number;
	/** When the execution started (epoch ms), to see how long n8n worked before the first request. */
	startedAt: number;
	/** CPU time the client process spent during the execution (user + system), ms. */
	cpuMs: number;
	/** The error that stopped the workflow, if any. */
	error?: string;
	/** The node's main output, json only. */
	outputs: IDataObject[];
	/** The client process's peak resident memory (n8n, the package, the run), MB. */
	peakRssMb: number;
}

/** The work of one run, prepared against a freshly reset sandbox. */
export interface Workload {
	/** The node's parameters (resource, operation, ...). */
	parameters: INodeParameters;
	/** The node's version (default 1): a new node's defaults are the newest version's. */
	typeVersion?: number;
	/** What the items source feeds the node. */
	inputItems: IDataObject[];
	/** n8n node settings; the bench's default is onError: continueRegularOutput (a failed item is counted, not fatal). */
	settings?: NodeSettings;
	/**
	 * Production executions of the same workflow (static data kept, as n8n does) before the measured one, whose requests
	 * are not counted: a sync that already ran. `checkDue`: the memory's last check against the service is older than
	 * Only Send What Changed's interval, so the measured run checks the rows it would skip.
	 */
	priorRuns?: { count: number; checkDue?: boolean };
	/** The fewest API requests the work needs (the floor is this / rate). */
	minRequests: number;
	/** Input items (or records) the run did not get done, judged from the sandbox's state and the output. */
	lost(result: ClientResult, admin: SandboxAdmin): Promise<number>;
	/** The scenario's own figures from the run's request log, and its own targets (the table's targets column). */
	judge?(log: RequestLogEntry[]): Judgement;
}

/** What a scenario reads from its request log beyond the table's columns. */
export interface Judgement {
	/** Printed under the table. */
	notes: string[];
	targets: Array<{ ok: boolean; text: string }>;
}

export interface Scenario {
	/** Unique, what `npm run bench -- <filter>` matches (substring). */
	id: string;
	/** The table's first column. */
	title: string;
	/** The sandbox's rate limit for the run; none = unlimited. */
	rateLimit?: RateLimitSpec;
	/** The sandbox's latency on every request (ms). */
	latencyMs?: number;
	/** Git revision whose node code runs the workflow (default: this working tree). */
	code?: string;
	/** Runs; the table shows the one with the median wall time (for short, noisy scenarios). Default 1. */
	repeat?: number;
	/** A target on the number of API requests the run may make (token exchanges included), when the issue sets one. */
	maxRequests?: number;
	/** Another scenario's id: this one's target is wall ≤ `factor` × that one's wall (it is run too). */
	compareTo?: { id: string; factor: number };
	/**
	 * Independent client processes (default 1), each with its own package instance as n8n's queue-mode workers
	 * have, sharing the credential and so the sandbox's one bucket: the input items are split into this many
	 * contiguous parts, one per process, and every process starts its execution at the same moment.
	 */
	processes?: number;
	/** A target on the share of requests answered 429 (all of them, not only late ones), when the issue sets one. */
	maxTooManyShare?: number;
	/** Seeds the (reset) sandbox and says what to run. */
	prepare(admin: SandboxAdmin): Promise<Workload>;
}
