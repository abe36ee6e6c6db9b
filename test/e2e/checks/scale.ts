// Scale in real n8n: Return All of 250,000 records (beyond what n8n's RoutingNode can return) with the memory
// growth of the n8n process compared with the route a user would build by hand (HTTP Request pagination + Split Out),
// and Upsert with Only Send What Changed across two executions (the memory in the workflow's static data).
// The comparison runs on n8n 2.x only (CI time); 1.x lists 125,000 (still above RoutingNode's ~120,000).
import { readFileSync } from 'node:fs';

import type { SandboxAdmin } from '../../sandbox/admin-client';
import { apiRequests, describeRequests, expectEqual } from './expect';
import { fail, sandboxCheck, type Check, type CheckContext } from './types';
import { callWebhook } from './webhook-call';

const SEED_APPROVED = 26;

/** Resident memory (VmRSS) of a process, MB; 0 once it is gone. */
function rssMb(pid: number | undefined): number {
	try {
		const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return rss ? Number(rss[1]) / 1024 : 0;
	} catch {
		return 0;
	}
}

/**
 * Calls a webhook workflow that lists every approved item and answers with Summarize's count and distinct count
 * of item_id (n8n's output of 250,000 items is not what is judged; the workflows keep no execution data), while
 * sampling the n8n process's memory: how much it grew above what it held before the call, at its peak.
 */
async function countThroughWebhook(ctx: CheckContext, admin: SandboxAdmin, path: string, total: number, route: string) {
	const server = ctx.server!;
	await admin.clearRequests();
	const before = rssMb(server.server.pid);
	let peak = before;
	const timer = setInterval(() => (peak = Math.max(peak, rssMb(server.server.pid))), 200);
	const started = Date.now();
	let answer: string;
	let status: number;
	try {
		({ status, answer } = await callWebhook(ctx, path));
	} finally {
		clearInterval(timer);
	}
	const seconds = (Date.now() - started) / 1000;
	if (status !== 200) fail(`${route}: the workflow answered ${status}: ${answer.slice(0, 300)}`);
	const counts = Object.values(JSON.parse(answer) as Record<string, unknown>);
	if (counts.length !== 2 || counts.some((count) => count !== total)) {
		fail(`${route}: expected ${total} items, ${total} distinct item_id values; the count said ${answer.slice(0, 300)}`);
	}
	return { seconds, growthMb: Math.round(peak - before), requests: apiRequests(await admin.requests()) };
}

/** A fresh n8n process, given a few seconds to finish starting (its memory settles) before anything is measured. */
async function restartAndSettle(ctx: CheckContext): Promise<void> {
	await ctx.server!.restart();
	await new Promise((resolve) => setTimeout(resolve, 5_000));
}

const largeListing = sandboxCheck('server', 'scale: item Get Many, Return All of 250,000 records (125,000 on 1.x), memory growth not above HTTP Request + Split Out', async (ctx, admin) => {
	const total = ctx.version.startsWith('1.') ? 125_000 : 250_000;
	await admin.reset();
	await admin.seedManyItems({ count: total - SEED_APPROVED, status: 'approved' });
	const api = ctx.server!.api;
	const ids = [ctx.workflowId('item-get-all-large'), ctx.workflowId('http-request-split-out-large')];
	for (const id of ids) await api.activate(id);
	const compare = !ctx.version.startsWith('1.');
	try {
		// Each route measured in a freshly started n8n: a process keeps the heap it grew, so whichever ran second
		// in the same process would seem to need less.
		if (compare) await restartAndSettle(ctx);
		const ours = await countThroughWebhook(ctx, admin, 'e2e-large-listing', total, 'Return All');
		const pages = Math.ceil(total / 100);
		expectEqual(ours.requests.length, pages, 'GET /v1/items requests (pages of 100)');
		const bad = ours.requests.find((r) => r.status !== 200 || r.query.page_size !== '100' || r.query.validation_status !== 'approved');
		if (bad) fail(`a page request was not a page of 100 approved items: ${describeRequests([bad])}`);
		const seen = `${total} items in ${ours.requests.length} requests, ${ours.seconds.toFixed(1)} s, n8n grew ${ours.growthMb} MB`;
		if (!compare) return seen;

		await restartAndSettle(ctx);
		const byHand = await countThroughWebhook(ctx, admin, 'e2e-large-by-hand', total, 'HTTP Request + Split Out');
		if (ours.growthMb > byHand.growthMb) {
			fail(`n8n grew ${ours.growthMb} MB for Return All, more than the ${byHand.growthMb} MB of HTTP Request + Split Out for the same ${total} records`);
		}
		return `${seen}; HTTP Request + Split Out: ${byHand.seconds.toFixed(1)} s, n8n grew ${byHand.growthMb} MB`;
	} finally {
		for (const id of ids) await api.deactivate(id);
	}
});

/** Calls the Upsert webhook workflow: the requests it made, and its answer, a count of output items per `operation`. */
async function upsertThroughWebhook(ctx: CheckContext, admin: SandboxAdmin) {
	await admin.clearRequests();
	const started = Date.now();
	const { status, answer } = await callWebhook(ctx, 'e2e-upsert-only-changed');
	if (status !== 200) fail(`the Upsert workflow answered ${status}: ${answer.slice(0, 300)}`);
	const counts = Object.fromEntries(
		(JSON.parse(answer) as Array<Record<string, unknown>>).map((group) => [String(group.operation), Number(Object.values(group).find((v) => typeof v === 'number'))]),
	);
	return { counts, requests: apiRequests(await admin.requests()), seconds: (Date.now() - started) / 1000 };
}

const upsertOnlyChanged = sandboxCheck('server', 'scale: item Upsert, Only Send What Changed: 1,000 rows sent once (listings read once), run 2 confirms the creations (no write), run 3 makes no request', async (ctx, admin) => {
	await admin.reset();
	// 8,000 existing items: their two listings (82 pages of 100) cost less than the rows' lookups (1,000+).
	await admin.seedManyItems({ count: 4_000, status: 'pending', skuPrefix: 'SCALE-', firstNumber: 1 });
	await admin.seedManyItems({ count: 4_000, status: 'approved', skuPrefix: 'SCALE-', firstNumber: 10_001 });
	const id = ctx.workflowId('item-upsert-only-changed');
	await ctx.server!.api.activate(id);
	try {
		// Production executions (webhook): n8n saves the workflow's static data after each.
		const first = await upsertThroughWebhook(ctx, admin);
		const writes = first.requests.filter((r) => r.method !== 'GET');
		const reads = first.requests.filter((r) => r.method === 'GET');
		expectEqual(first.counts, { updated: 700, 'not applied': 100, created: 200 }, 'run 1 outcomes');
		expectEqual(writes.filter((r) => r.method === 'PATCH').length, 700, 'PATCH requests (700 pending rows; the 100 approved rows change nothing an approved item takes)');
		expectEqual(writes.filter((r) => r.method === 'POST').length, 1, 'POST requests (200 new rows, one batch)');
		if (reads.some((r) => r.query.vendor_sku !== undefined)) fail(`run 1 looked rows up one by one instead of reading the listings: ${describeRequests(reads.slice(0, 3))}`);
		expectEqual(reads.length, 82, 'listing requests (4,026 non-approved + 4,026 approved, pages of 100)');

		// The 200 creations were only submitted: run 2 confirms them in the listings and writes nothing.
		const second = await upsertThroughWebhook(ctx, admin);
		const secondWrites = second.requests.filter((r) => r.method !== 'GET');
		if (secondWrites.length) fail(`run 2 of the same rows made ${secondWrites.length} write(s): ${describeRequests(secondWrites.slice(0, 5))}`);
		expectEqual(second.counts, { unchanged: 1_000 }, 'run 2 outcomes');

		const third = await upsertThroughWebhook(ctx, admin);
		if (third.requests.length) fail(`run 3 of the same rows made ${third.requests.length} request(s): ${describeRequests(third.requests.slice(0, 5))}`);
		expectEqual(third.counts, { unchanged: 1_000 }, 'run 3 outcomes');
		return `run 1: ${writes.length} writes + ${reads.length} reads (${first.seconds.toFixed(1)} s); run 2: ${second.requests.length} reads, 0 writes; run 3: 0 requests, 1,000 "unchanged" (${third.seconds.toFixed(1)} s)`;
	} finally {
		await ctx.server!.api.deactivate(id);
	}
});

export const scaleChecks: Check[] = [largeListing, upsertOnlyChanged];
