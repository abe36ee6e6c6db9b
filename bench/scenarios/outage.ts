// Item → Update of 200 items through a 3 s outage (issue 38): after the 50th PATCH the service answers every PATCH
// 503 with an HTTP-date Retry-After for 3 s. The 150 PATCHes after it must go at their pace before it once the
// service answers again: within 1.5 × that pace, plus the outage. Run with this code and with the code before
// issue 38 told an outage from a rate limit (it learnt a pace from the 503 and grew back slowly).
import type { RequestLogEntry } from '../../test/sandbox';
import type { Judgement, Scenario } from '../scenario';
import { updateWorkload } from './update';

const ITEMS = 200;
const BEFORE_OUTAGE = 50;
const OUTAGE_MS = 3_000;
const PACE_FACTOR = 1.5;
/** The last commit before the transport told an outage from a rate limit. */
export const BEFORE_OUTAGE_RULES = 'ab4ab59';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The PATCHes before and after the outage's first 503, and whether the ones after kept the pace (see file comment). */
export function judgeOutage(log: RequestLogEntry[]): Judgement {
	const patches = log
		.filter((entry) => entry.method === 'PATCH')
		.map((entry) => ({ at: Date.parse(entry.at), status: entry.status }))
		.sort((a, b) => a.at - b.at);
	const refused = patches.filter((patch) => patch.status >= 500);
	if (refused.length === 0 || patches.length === 0) return { notes: ['no PATCH met the outage'], targets: [{ ok: false, text: 'outage seen' }] };
	const start = refused[0].at;
	// The sandbox's HTTP date is the window's end rounded up to the second: no client may come back before it.
	const askedUntil = Math.ceil((start + OUTAGE_MS) / 1000) * 1000;
	const done = patches.filter((patch) => patch.status >= 200 && patch.status < 300);
	// Within the window every PATCH is refused: a success in the first 503's millisecond arrived before it.
	const before = done.filter((patch) => patch.at <= start);
	const after = done.filter((patch) => patch.at > start);
	if (before.length < 2 || after.length < 2) return { notes: [`${before.length} PATCHes before the outage, ${after.length} after`], targets: [{ ok: false, text: 'PATCHes on both sides' }] };
	const perRequestBefore = (before.at(-1)!.at - patches[0].at) / (before.length - 1);
	const afterFirst = after[0].at;
	const afterLast = after.at(-1)!.at;
	const perRequestAfter = (afterLast - afterFirst) / (after.length - 1);
	const outageMs = askedUntil - start;
	const allowedMs = outageMs + PACE_FACTOR * after.length * perRequestBefore;
	const tookMs = afterLast - start;
	return {
		notes: [
			`before the outage ${before.length} PATCHes in ${seconds(before.at(-1)!.at - patches[0].at)} (${(1000 / perRequestBefore).toFixed(0)} req/s); ` +
				`the outage: ${refused.length} PATCHes answered 503, window ${seconds(OUTAGE_MS)}, Retry-After until ${seconds(outageMs)} after its first 503; ` +
				`after it ${after.length} PATCHes in ${seconds(tookMs)} from its first 503, the first ${seconds(afterFirst - (start + OUTAGE_MS))} after the window ended ` +
				`(${seconds(afterFirst - askedUntil)} after the Retry-After date), then ${(1000 / perRequestAfter).toFixed(0)} req/s = ${(perRequestAfter / perRequestBefore).toFixed(2)} × the time per PATCH before; ` +
				`target ≤ ${seconds(allowedMs)} (the outage until its Retry-After + ${PACE_FACTOR} × ${after.length} PATCHes at the pace before)`,
		],
		targets: [{ ok: tookMs <= allowedMs, text: `${after.length} after the outage ≤ outage + ${PACE_FACTOR}× pace before` }],
	};
}

function outageScenario(code: string | undefined): Scenario {
	return {
		id: code === undefined ? 'outage-update-200' : `outage-update-200-${code}`,
		title: `Update of 200 items through a 3 s outage${code === undefined ? '' : `, code before the outage rules (${code})`}`,
		code,
		prepare: async (admin) => {
			const workload = await updateWorkload(admin, ITEMS);
			await admin.addFault({ kind: 'outage', method: 'PATCH', skip: BEFORE_OUTAGE, ms: OUTAGE_MS, status: 503, retryAfter: 'http-date' });
			return { ...workload, judge: judgeOutage };
		},
	};
}

export const outageScenarios: Scenario[] = [outageScenario(BEFORE_OUTAGE_RULES), outageScenario(undefined)];
