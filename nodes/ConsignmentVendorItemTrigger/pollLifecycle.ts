/**
 * Where a poll stands in its trigger's life, in this n8n process (read from n8n's own code, 1.123 and 2.41):
 * - n8n creates ONE poll context per activation of a workflow (ActiveWorkflows.activatePolling in 1.x,
 *   ActiveWorkflowTriggers.activatePollTrigger in 2.x) and runs every poll of that activation with it: first the
 *   activation's own poll, which n8n waits for before the workflow counts as active (also at start-up, one workflow
 *   after another), then one poll per Poll Times tick. Both run in mode `trigger` with the same activation mode, so
 *   a context seen for the first time is how the node tells an activation's poll from a scheduled one.
 * - n8n 2.x's optional durable poll scheduler (N8N_SCHEDULER_POLL_TRIGGERS_ENABLED) makes a fresh context for every
 *   scheduled poll, with a poll budget shorter than the default one (PollContext.getPollBudgetMs, 5 minutes): such a
 *   context is a scheduled poll, never an activation.
 * - Deactivating, saving or re-publishing an active workflow replaces its activation. n8n 1.x only stops the old
 *   activation's timers: a poll already reading completes, and what it returns starts an execution and saves the
 *   OLD workflow object's static data, while the new activation started from the static data as it was before. 2.41
 *   discards a replaced activation's poll result itself. So a poll whose context is no longer the latest of its
 *   trigger (workflow id + node id) is superseded: it stops reading, writes no memory and returns nothing, whatever the
 *   version. n8n 1.x gives a node no sign of a plain deactivation (no new activation follows): a poll reading at that
 *   moment still completes there (docs/item-trigger.md).
 * - One poll of a trigger reads at a time, across activations (n8n 1.x and 2.x start a tick's poll whether or not the
 *   previous one finished): a scheduled poll that finds another one reading is skipped.
 * - n8n saves a poll trigger's static data only after the activation's poll and when a poll returns events (before
 *   their execution; 2.41 outside its durable scheduler too): a memory a quiet poll wrote (a baseline, missing marks,
 *   changes the filters left out) lives in the activation's Workflow object only, and a re-activation loads the
 *   older saved one. So such a memory is kept here too, with the saved memory it descends from; an activation that
 *   loads that saved memory continues from the kept one instead (and n8n saves it after the activation's poll). A
 *   memory whose poll returned events is not kept: n8n saved it, or (2.41) discarded that poll. A kept memory stays
 *   kept past such a poll, marked overtaken by what it wrote: when n8n saved that, an activation loads it and the
 *   kept memory is stale; when 2.41 discarded the poll (a deactivation gives the node no sign of it), an activation
 *   loads the older saved memory and the kept one is still the latest (the generated histories found a change
 *   announced from an unknown status there, test/histories/item-trigger).
 * - What another process's quiet polls wrote is gone: n8n started (or another main took over) loads the memory the
 *   earlier process last saved, which may be older than that process's last polls. The first activation of a
 *   trigger in this process says so (`firstInProcess`); the memory it loaded is marked `inherited` until a complete
 *   read of this process has been compared with it (statusDiff.ts: what an inherited memory changes).
 * The state is kept per process: n8n runs a workflow's polls on one process (the leader main in queue mode).
 */
import { createHash } from 'node:crypto';

import type { IPollFunctions } from 'n8n-workflow';

/** PollContext's default budget (n8n-core 2.41); 1.x has none. */
const DEFAULT_POLL_BUDGET_MS = 5 * 60_000;

interface TriggerLife {
	/** Bumped by every activation seen in this process. */
	generation: number;
	/** Aborted when a later activation supersedes this one: its queued requests leave the queue unsent. */
	controller: AbortController;
	/** Polls of this trigger reading now (a superseded one may still be finishing). */
	reading: number;
	/** The latest memory a poll wrote that n8n did not save (see the file comment). */
	unsaved?: UnsavedMemory;
	/** Fingerprint of the memory the first activation in this process loaded, until a complete read was compared with it. */
	inherited?: string;
}

interface UnsavedMemory {
	/** As JSON: a copy, never the Workflow object's own (n8n watches static data for changes). */
	text: string;
	fingerprint: string;
	/**
	 * Fingerprints of saved memories it descends from: the one its line started from, and the ones activations took
	 * over since (saved after their poll, unless the activation failed).
	 */
	bases: string[];
	/** Fingerprints of what later polls that returned events wrote: an activation loading one of them ignores this. */
	overtakenBy: string[];
}

const MAX_BASES = 4;

const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const fingerprint = (stored: unknown) => hash(JSON.stringify(stored ?? null));

const lives = new Map<string, TriggerLife>();
const generationOf = new WeakMap<object, number>();
/** Generations are unique in the process, so a context is never taken for another trigger's or a forgotten one's. */
let lastGeneration = 0;

export interface PollTurn {
	/** The activation's poll (n8n waits for it) or one on n8n's schedule. */
	kind: 'activation' | 'scheduled';
	/** Another poll of the same trigger was reading when this one began. */
	overlapping: boolean;
	/** The activation's poll, and this process had not seen the trigger before (n8n started, or a new trigger). */
	firstInProcess: boolean;
	/** Marks the saved memory the activation loaded as an earlier process's (call when `firstInProcess`). */
	markInherited(saved: unknown): void;
	/** Whether `memory` is the earlier process's memory, not yet compared with a complete read of this process. */
	isInherited(memory: unknown): boolean;
	/** False once a later activation of the same trigger began: this poll's work is void. */
	isCurrent(): boolean;
	/** Aborted when superseded. */
	signal: AbortSignal;
	/** Call when the poll is over, whatever happened. */
	end(): void;
	/**
	 * For the activation's poll: the memory to start from, given the saved one it loaded: a later memory of the same
	 * line that n8n did not save, or undefined (start from the saved one).
	 */
	unsavedSuccessor(saved: unknown): unknown;
	/**
	 * After a complete comparison: what the poll wrote (`from` -> `to`), and whether it returned events (then n8n
	 * saves it, or discards the poll).
	 */
	noteMemory(from: unknown, to: unknown, returnedEvents: boolean): void;
}

function triggerKey(context: IPollFunctions): string {
	return JSON.stringify([context.getWorkflow().id ?? '', context.getNode().id]);
}

/** A context made for one scheduled poll only (n8n 2.x's durable scheduler). */
function isPerPollContext(context: IPollFunctions): boolean {
	const budget = (context as { getPollBudgetMs?: () => number }).getPollBudgetMs;
	return typeof budget === 'function' && budget.call(context) < DEFAULT_POLL_BUDGET_MS;
}

/** Call at the start of every poll in mode `trigger`. */
export function beginPoll(context: IPollFunctions): PollTurn {
	const key = triggerKey(context);
	let life = lives.get(key);
	const newInProcess = life === undefined;
	if (life === undefined) {
		life = { generation: 0, controller: new AbortController(), reading: 0 };
		lives.set(key, life);
	}
	const current = life;
	let generation = generationOf.get(context);
	let kind: PollTurn['kind'] = 'scheduled';
	if (generation === undefined) {
		if (!isPerPollContext(context)) {
			kind = 'activation';
			current.generation = ++lastGeneration;
			current.controller.abort();
			current.controller = new AbortController();
		}
		generation = current.generation;
		generationOf.set(context, generation);
	}
	const overlapping = current.reading > 0;
	current.reading++;
	let ended = false;
	return {
		kind,
		overlapping,
		firstInProcess: newInProcess && kind === 'activation',
		markInherited: (saved) => {
			current.inherited = fingerprint(saved);
		},
		isInherited: (memory) => current.inherited !== undefined && current.inherited === fingerprint(memory),
		isCurrent: () => current.generation === generation,
		signal: current.controller.signal,
		end: () => {
			if (ended) return;
			ended = true;
			current.reading--;
		},
		unsavedSuccessor: (saved) => {
			const unsaved = current.unsaved;
			if (unsaved === undefined) return undefined;
			if (unsaved.overtakenBy.includes(fingerprint(saved))) {
				current.unsaved = undefined;
				return undefined;
			}
			if (!unsaved.bases.includes(fingerprint(saved))) return undefined;
			unsaved.bases = [...unsaved.bases, unsaved.fingerprint].slice(-MAX_BASES);
			return JSON.parse(unsaved.text) as unknown;
		},
		noteMemory: (from, to, returnedEvents) => {
			if (current.generation !== generation) return;
			// A quiet complete read was compared with it: what this process keeps from here is its own. (After events,
			// n8n saved a newer memory, or 2.41 discarded the poll and the inherited one is still the one to compare.)
			if (!returnedEvents) current.inherited = undefined;
			// n8n saves what the activation's poll wrote, and (or discards) what a poll that returned events wrote.
			if (kind === 'activation') {
				current.unsaved = undefined;
				return;
			}
			if (returnedEvents) {
				if (current.unsaved !== undefined) current.unsaved.overtakenBy = [...current.unsaved.overtakenBy, fingerprint(to)].slice(-MAX_BASES);
				return;
			}
			const start = fingerprint(from);
			const text = JSON.stringify(to ?? null);
			const end = hash(text);
			if (end === start) return;
			// Descends from the kept memory (itself unsaved), or from the memory the poll found, which n8n saved.
			const bases = current.unsaved !== undefined && current.unsaved.fingerprint === start ? current.unsaved.bases : [start];
			current.unsaved = { text, fingerprint: end, bases, overtakenBy: [] };
		},
	};
}

/** Only for tests: every trigger forgotten, as in a fresh process. */
export function forgetPollLives(): void {
	lives.clear();
}
