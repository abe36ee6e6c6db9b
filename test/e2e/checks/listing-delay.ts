// Create or Update as a schedule runs it in real n8n, against a service that lists a new item 90 s after accepting it
// and does not refuse a repeated vendor_sku: three production executions 20 s apart (on the sandbox's clock) create
// each of 30 SKUs once. The memory of submissions lives in the workflow's static data, which n8n saves after each
// production execution, and in the n8n process.
import type { SandboxAdmin } from '../../sandbox/admin-client';
import { apiRequests, describeRequests, expectEqual } from './expect';
import { fail, sandboxCheck, type Check, type CheckContext } from './types';
import { callWebhook } from './webhook-call';

async function runSync(ctx: CheckContext, admin: SandboxAdmin) {
	await admin.clearRequests();
	const { status, answer } = await callWebhook(ctx, 'e2e-upsert-listing-delay');
	if (status !== 200) fail(`the Create or Update workflow answered ${status}: ${answer.slice(0, 300)}`);
	const counts = Object.fromEntries(
		(JSON.parse(answer) as Array<Record<string, unknown>>).map((group) => [String(group.operation), Number(Object.values(group).find((v) => typeof v === 'number'))]),
	);
	return { counts, posts: apiRequests(await admin.requests()).filter((r) => r.method === 'POST') };
}

const listedLate = sandboxCheck('server', 'listing delay: Create or Update run 3 times 20 s apart while new items are listed 90 s late creates each of 30 SKUs once', async (ctx, admin) => {
	await admin.reset();
	await admin.setItemSettings({ listingDelaySeconds: 90, allowDuplicateSkus: true });
	const id = ctx.workflowId('item-upsert-listing-delay');
	await ctx.server!.api.activate(id);
	try {
		const first = await runSync(ctx, admin);
		expectEqual(first.counts, { created: 30 }, 'run 1 outcomes');
		for (const run of [2, 3]) {
			await admin.advanceClock(20);
			const again = await runSync(ctx, admin);
			if (again.posts.length) fail(`run ${run} sent ${again.posts.length} creation request(s) again: ${describeRequests(again.posts)}`);
			expectEqual(again.counts, { 'awaiting the service': 30 }, `run ${run} outcomes`);
		}
		const items = (await admin.state()).items.filter((item) => item.vendor_sku.startsWith('DELAY-'));
		expectEqual(items.length, 30, 'items with a DELAY- SKU at the service');
		await admin.advanceClock(60);
		const listed = await runSync(ctx, admin);
		if (listed.posts.length) fail(`once listed, a run sent ${listed.posts.length} creation request(s)`);
		if ('awaiting the service' in listed.counts) fail(`once listed, rows still await the service: ${JSON.stringify(listed.counts)}`);
		return `run 1 created 30; runs 2-3: 30 "awaiting the service", 0 POSTs; 30 items at the service; once listed: ${JSON.stringify(listed.counts)}`;
	} finally {
		await ctx.server!.api.deactivate(id);
		await admin.reset();
	}
});

export const listingDelayChecks: Check[] = [listedLate];
