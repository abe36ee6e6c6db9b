// One table row from a run: what the sandbox logged (requests, 429s and when), what the client measured, and
// the targets (0 items lost; wall ≤ 1.2 × floor; 429s after the first 2 s ≤ 5 % of requests; with no
// limit, wall ≤ 1.05 × the code before the transport).
import type { RequestLogEntry } from '../test/sandbox';
import type { ClientResult, Scenario } from './scenario';

export const WALL_FACTOR = 1.2;
export const LATE_AFTER_MS = 2_000;
export const LATE_SHARE_MAX = 0.05;

/** One client process's part of a multi-process run (Scenario.processes). */
export interface ProcessShare {
	/** Requests for this process's items that reached the sandbox, 429s included. */
	requests: number;
	tooMany: number;
	/** The process's CPU time (process.cpuUsage, user + system) during its execution, ms. */
	cpuMs: number;
	/** Its own execution's wall time, ms. */
	wallMs: number;
}

export interface Row {
	scenario: Scenario;
	requests: number;
	tooMany: number;
	late: number;
	lost: number;
	wallMs: number;
	/** minRequests / rate; undefined without a limit. */
	floorMs?: number;
	/** The row of the scenario this one is compared to. */
	compared?: Row;
	peakRssMb: number;
	/** Client CPU time during the execution, ms. */
	cpuMs: number;
	/** From the execution's start to its first request reaching the sandbox, ms. */
	firstRequestMs: number;
	/** What went wrong beside the figures (a workflow error, failed output items). */
	notes: string[];
	/** Wall times of every repeat, when repeated. */
	walls: number[];
	/** Each process's part, for a scenario run from several processes. */
	processes?: ProcessShare[];
	/** The scenario's own targets (Workload.judge). */
	ownTargets?: Verdict[];
}

export function measure(scenario: Scenario, log: RequestLogEntry[], result: ClientResult, lost: number, minRequests: number): Row {
	const times = log.map((entry) => Date.parse(entry.at));
	const first = Math.min(...times);
	const tooMany = log.filter((entry) => entry.status === 429);
	const rate = scenario.rateLimit?.rate;
	const failedOutputs = result.outputs.filter((json) => json.error !== undefined).length;
	const notes: string[] = [];
	// How long the sandbox itself took per request (on the same machine: it shares the CPUs with n8n).
	const durations = log.map((entry) => entry.durationMs ?? 0).sort((a, b) => a - b);
	if (durations.length > 0) {
		const at = (share: number) => durations[Math.min(durations.length - 1, Math.floor(share * durations.length))];
		notes.push(`the sandbox answered in ${at(0.5)} ms (median), ${at(0.9)} ms (90th percentile), ${durations.at(-1)} ms (max)`);
	}
	if (result.error) notes.push(`workflow stopped: ${result.error}`);
	if (failedOutputs > 0) notes.push(`${failedOutputs} output items are errors, e.g. "${String(result.outputs.find((json) => json.error !== undefined)?.error)}"`);
	return {
		scenario,
		requests: log.length,
		tooMany: tooMany.length,
		late: tooMany.filter((entry) => Date.parse(entry.at) - first > LATE_AFTER_MS).length,
		lost,
		wallMs: result.wallMs,
		floorMs: rate === undefined ? undefined : (minRequests / rate) * 1000,
		peakRssMb: result.peakRssMb,
		cpuMs: result.cpuMs,
		firstRequestMs: first - result.startedAt,
		notes,
		walls: [result.wallMs],
	};
}

export interface Verdict {
	ok: boolean;
	text: string;
}

/** From the first request reaching the sandbox to the end: the part the transport paces. */
export const pacedMs = (row: Row): number => row.wallMs - Math.max(0, row.firstRequestMs);

/** Each of the targets the row is measured against, held or not. */
export function verdicts(row: Row): Verdict[] {
	const list: Verdict[] = [{ ok: row.lost === 0, text: 'lost 0' }];
	if (row.floorMs !== undefined) {
		list.push({ ok: row.wallMs <= WALL_FACTOR * row.floorMs, text: `wall ≤ ${WALL_FACTOR}×floor` });
		list.push({ ok: row.late <= LATE_SHARE_MAX * row.requests, text: `late 429s ≤ ${LATE_SHARE_MAX * 100} %` });
	}
	const { maxTooManyShare } = row.scenario;
	if (maxTooManyShare !== undefined) list.push({ ok: row.tooMany <= maxTooManyShare * row.requests, text: `429s ≤ ${maxTooManyShare * 100} %` });
	list.push(...(row.ownTargets ?? []));
	const { maxRequests } = row.scenario;
	if (maxRequests !== undefined) list.push({ ok: row.requests <= maxRequests, text: `requests ≤ ${maxRequests}` });
	const compare = row.scenario.compareTo;
	if (compare !== undefined) {
		list.push(
			row.compared === undefined
				? { ok: false, text: `compared with ${compare.id}: not run` }
				: { ok: row.wallMs <= compare.factor * row.compared.wallMs, text: `wall ≤ ${compare.factor}× old code` },
		);
	}
	return list;
}
