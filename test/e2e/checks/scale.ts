// Scale in real n8n: Return All of 250,000 records (beyond what n8n's RoutingNode can return) with the peak memory
// of the n8n process compared with the route a user would build by hand (HTTP Request pagination + Split Out),
// and Upsert with Only Send What Changed across two executions (the memory in the workflow's static data).
// The comparison runs on n8n 2.x only (CI time); 1.x lists 125,000 (still above RoutingNode's ~120,000).
import { readFileSync, readdirSync } from 'node:fs';

import type { SandboxAdmin } from '../../sandbox/admin-client';
import type { ExecuteOutcome } from '../lib/n8n-cli';
import { apiRequests, describeRequests, expectEqual, expectSuccess, outputItemsOf } from './expect';
import { fail, sandboxOf, type Check, type CheckContext } from './types';

const SEED_APPROVED = 26;

/** Peak resident memory (VmHWM, MB) of the `n8n execute` process of `workflowId`, sampled while `run` runs. */
async function withPeakMemory(workflowId: string, run: () => Promise<ExecuteOutcome>): Promise<{ outcome: ExecuteOutcome; peakMb: number }> {
	let peakKb = 0;
	const sample = () => {
		for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
			try {
				const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
				if (!cmdline.includes('execute') || !cmdline.includes(`--id=${workflowId}`)) continue;
				const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
				if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
			} catch {
				// the process ended between listing and reading
			}
		}
	};
	const timer = setInterval(sample, 200);
	try {
		const outcome = await run();
		return { outcome, peakMb: Math.round(peakKb / 1024) };
	} finally {
		clearInterval(timer);
	}
}

/**
 * The listing runs in a sub-workflow (given inline: 2.x runs only published sub-workflows from its database) ending in a Summarize (count and distinct count of item_id): `n8n execute`
 * prints the whole run, and 250,000 items would not come through its output in one piece.
 */
function expectCounted(outcome: ExecuteOutcome, total: number, route: string): void {
	const [summary] = outputItemsOf(outcome, 'Run listing');
	const counts = Object.values(summary?.json ?? {});
	if (counts.length !== 2 || counts.some((count) => count !== total)) {
		fail(`${route}: expected ${total} items, ${total} distinct item_id values; the count said ${JSON.stringify(summary?.json)}`);
	}
}

async function executeMeasured(ctx: CheckContext, admin: SandboxAdmin, workflow: string) {
	await admin.clearRequests();
	const { outcome, peakMb } = await withPeakMemory(ctx.workflowId(workflow), async () => await ctx.execute(workflow));
	expectSuccess(outcome, workflow);
	return { outcome, peakMb, requests: apiRequests(await admin.requests()) };
}

const largeListing: Check = {
	name: 'item Get Many: Return All of 250,000 records (125,000 on 1.x), peak memory not above HTTP Request + Split Out',
	phase: 'cli',
	needsSandbox: true,
	async run(ctx) {
		const admin = sandboxOf(ctx);
		const total = ctx.version.startsWith('1.') ? 125_000 : 250_000;
		await admin.reset();
		await admin.seedManyItems({ count: total - SEED_APPROVED, status: 'approved' });

		const ours = await executeMeasured(ctx, admin, 'item-get-all-large');
		expectCounted(ours.outcome, total, 'Return All');
		const pages = Math.ceil(total / 100);
		expectEqual(ours.requests.length, pages, 'GET /v1/items requests (pages of 100)');
		const bad = ours.requests.find((r) => r.status !== 200 || r.query.page_size !== '100' || r.query.validation_status !== 'approved');
		if (bad) fail(`a page request was not a page of 100 approved items: ${describeRequests([bad])}`);
		const seen = `${total} items in ${ours.requests.length} requests, ${(ours.outcome.ms / 1000).toFixed(1)} s, peak ${ours.peakMb} MB`;
		if (ctx.version.startsWith('1.')) return seen;

		const byHand = await executeMeasured(ctx, admin, 'http-request-split-out-large');
		expectCounted(byHand.outcome, total, 'HTTP Request + Split Out');
		if (ours.peakMb > byHand.peakMb) {
			fail(`peak memory ${ours.peakMb} MB is above HTTP Request + Split Out's ${byHand.peakMb} MB for the same ${total} records`);
		}
		return `${seen}; HTTP Request + Split Out: ${(byHand.outcome.ms / 1000).toFixed(1)} s, peak ${byHand.peakMb} MB`;
	},
};

const upsertOnlyChanged: Check = {
	name: 'item Upsert, Only Send What Changed: 1,000 rows sent once (listings read once), the same rows again make no request',
	phase: 'cli',
	needsSandbox: true,
	async run(ctx) {
		const admin = sandboxOf(ctx);
		await admin.reset();
		// 8,000 existing items: their two listings (82 pages of 100) cost less than the rows' lookups (1,000+).
		await admin.seedManyItems({ count: 4_000, status: 'pending', skuPrefix: 'SCALE-', firstNumber: 1 });
		await admin.seedManyItems({ count: 4_000, status: 'approved', skuPrefix: 'SCALE-', firstNumber: 10_001 });
		const workflow = 'item-upsert-only-changed';

		await admin.clearRequests();
		const first = await ctx.execute(workflow);
		expectSuccess(first, workflow);
		const firstRequests = apiRequests(await admin.requests());
		const writes = firstRequests.filter((r) => r.method !== 'GET');
		const reads = firstRequests.filter((r) => r.method === 'GET');
		expectEqual(writes.filter((r) => r.method === 'PATCH').length, 800, 'PATCH requests (700 pending + 100 approved rows)');
		expectEqual(writes.filter((r) => r.method === 'POST').length, 1, 'POST requests (200 new rows, one batch)');
		if (reads.some((r) => r.query.vendor_sku !== undefined)) fail(`run 1 looked rows up one by one instead of reading the listings: ${describeRequests(reads.slice(0, 3))}`);
		expectEqual(reads.length, 82, 'listing requests (4,026 non-approved + 4,026 approved, pages of 100)');

		await admin.clearRequests();
		const second = await ctx.execute(workflow);
		expectSuccess(second, workflow);
		const secondRequests = apiRequests(await admin.requests());
		if (secondRequests.length) fail(`run 2 of the same rows made ${secondRequests.length} request(s): ${describeRequests(secondRequests.slice(0, 5))}`);
		const out = outputItemsOf(second, 'Upsert rows');
		expectEqual(out.length, 1_000, 'run 2 output items');
		const notUnchanged = out.filter((item) => item.json.operation !== 'unchanged');
		if (notUnchanged.length) fail(`run 2: ${notUnchanged.length} rows not "unchanged", e.g. ${JSON.stringify(notUnchanged[0].json)}`);
		return `run 1: ${writes.length} writes + ${reads.length} reads (${(first.ms / 1000).toFixed(1)} s); run 2: 0 requests, 1,000 "unchanged" (${(second.ms / 1000).toFixed(1)} s)`;
	},
};

export const scaleChecks: Check[] = [largeListing, upsertOnlyChanged];
