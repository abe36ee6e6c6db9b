import type { RequestLogEntry } from '../../sandbox/types';
import { apiRequests, expectEqual, expectSuccess, outputOf } from './expect';
import { fail, sandboxCheck, type Check, type CheckContext } from './types';
import { callWebhook } from './webhook-call';
import { workflowCheck } from './workflow-check';

/** What the issue measured: an independent service allowing 20 requests/s per client, burst 20, Retry-After 1. */
const LIMIT = { rate: 20, burst: 20, retryAfter: 'seconds', retryAfterSeconds: 1 } as const;
const APPROVED_SEED_ITEMS = 26;

const patches = (log: RequestLogEntry[]) => apiRequests(log).filter((r) => r.method === 'PATCH');

function tally(log: RequestLogEntry[]): { ok: number; limited: number; other: string[] } {
	const sent = patches(log);
	const other = sent.filter((r) => r.status !== 200 && r.status !== 429).map((r) => `${r.path} ${JSON.stringify(r.body)} -> ${r.status}`);
	return { ok: sent.filter((r) => r.status === 200).length, limited: sent.filter((r) => r.status === 429).length, other };
}

function expectAllUpdated(items: Array<Record<string, unknown>>, expected: number, who: string): void {
	const failed = items.filter((i) => i.error !== undefined);
	if (failed.length) fail(`${who}: ${failed.length} of ${items.length} items failed, e.g. ${JSON.stringify(failed[0]).slice(0, 300)}`);
	expectEqual(items.length, expected, `${who}: output items`);
}

/** The address of the last row that named each item (the workflow's rows switch 301 <-> 304 every round). */
function expectedAddresses(count: number): Map<string, number> {
	const last = new Map<string, number>();
	for (let row = 0; row < count; row++) last.set(String(50001 + 2 * (row % APPROVED_SEED_ITEMS)), Math.floor(row / APPROVED_SEED_ITEMS) % 2 ? 304 : 301);
	return last;
}

async function postUpdates(ctx: CheckContext, count: number): Promise<Array<Record<string, unknown>>> {
	const { status, answer } = await callWebhook(ctx, 'e2e-update-many', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ count }),
	});
	if (status !== 200) fail(`the caller asking for ${count} updates got ${status}: ${answer.slice(0, 300)}`);
	return JSON.parse(answer) as Array<Record<string, unknown>>;
}

export const rateLimitChecks: Check[] = [
	workflowCheck({
		name: 'rate limit: item Update of 600 rows against a service allowing 20 requests/s (burst 20) ends with 600 updated',
		workflow: 'item-update-rate-limited',
		setup: async (admin) => {
			await admin.setRateLimit(LIMIT);
		},
		verify({ outcome, requests, state }) {
			const { ok, limited, other } = tally(requests);
			if (other.length) fail(`PATCHes answered neither 200 nor 429: ${other.slice(0, 5).join(', ')}`);
			expectSuccess(outcome, 'item-update-rate-limited');
			expectAllUpdated(outputOf(outcome, 'Update items'), 600, 'Update items');
			expectEqual(ok, 600, 'PATCHes the service accepted');
			for (const [itemId, addressId] of expectedAddresses(600)) {
				const item = state.items.find((i) => String(i.item_id) === itemId);
				if (item?.address_id !== addressId) fail(`item ${itemId} has address ${String(item?.address_id)}, the last row sent ${addressId}`);
			}
			const spanS = (Date.parse(requests.at(-1)!.at) - Date.parse(requests[0].at)) / 1000;
			return `600 updated; ${ok + limited} PATCHes, ${limited} answered 429, over ${spanS.toFixed(1)} s (floor 30 s)`;
		},
	}),
	sandboxCheck('server', 'rate limit: two executions of the same credential at once (2 × 300 updates, 20 requests/s) share the budget and both complete', async (ctx, admin) => {
		await admin.reset();
		await ctx.server!.api.activate(ctx.workflowId('webhook-update-rate-limited'));
		try {
			await admin.setRateLimit(LIMIT);
			await admin.clearRequests();
			const started = Date.now();
			const [first, second] = await Promise.all([postUpdates(ctx, 300), postUpdates(ctx, 300)]);
			const seconds = (Date.now() - started) / 1000;
			expectAllUpdated(first, 300, 'first caller');
			expectAllUpdated(second, 300, 'second caller');
			const { ok, limited, other } = tally(await admin.requests());
			if (other.length) fail(`PATCHes answered neither 200 nor 429: ${other.slice(0, 5).join(', ')}`);
			expectEqual(ok, 600, 'PATCHes the service accepted (both executions)');
			return `2 × 300 updated in ${seconds.toFixed(1)} s (floor 30 s); ${ok + limited} PATCHes, ${limited} answered 429`;
		} finally {
			await admin.clearRateLimit();
			await ctx.server!.api.deactivate(ctx.workflowId('webhook-update-rate-limited'));
		}
	}),
];
