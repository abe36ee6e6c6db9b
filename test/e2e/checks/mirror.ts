// Create or Update as a mirror of its source (issue 29) in real n8n: 1,000 listed items, a source of 950 rows sets the
// 50 others to 0 (each once, nothing else written; through a webhook, as production runs keep the node's memory, and
// because n8n 1.x's `execute` does not reliably print a run of that size); the guard stops a source of 500 rows and an empty source read
// with no write and a clear error; Preview lists exactly the 50; Batching is refused.
import type { SandboxAdmin } from '../../sandbox/admin-client';
import type { RequestLogEntry, SandboxStateSnapshot } from '../../sandbox/types';
import { apiRequests, describeRequests, expectEqual, expectSuccess, outputOf } from './expect';
import type { ExecuteOutcome } from '../lib/n8n-cli';
import { fail, sandboxCheck, type Check, type CheckContext } from './types';
import { callWebhook } from './webhook-call';
import { workflowCheck } from './workflow-check';

const LISTED = 1_000;
const PREFIX = 'MIRE-';
/** The demo data's item_ids: set to deleted, so the catalogue is exactly the 1,000 seeded items. */
const DEMO_ITEM_IDS = Array.from({ length: 52 }, (_, i) => 50_001 + i);
const MISSING = Array.from({ length: 50 }, (_, i) => `${PREFIX}${951 + i}`);

async function seedCatalogue(admin: SandboxAdmin): Promise<void> {
	for (const id of DEMO_ITEM_IDS) await admin.setItemStatus(id, 'deleted');
	await admin.seedManyItems({ count: LISTED, status: 'approved', skuPrefix: PREFIX, firstNumber: 1 });
}

const writesOf = (requests: RequestLogEntry[]) => apiRequests(requests).filter((r) => r.method !== 'GET');

function expectNoWrite(requests: RequestLogEntry[], state: SandboxStateSnapshot, what: string): void {
	const writes = writesOf(requests);
	if (writes.length) fail(`${what}: ${writes.length} write(s) were sent: ${describeRequests(writes.slice(0, 5))}`);
	const zeroed = state.items.filter((item) => item.vendor_sku.startsWith(PREFIX) && item.quantity === 0);
	if (zeroed.length) fail(`${what}: ${zeroed.length} item(s) at quantity 0`);
}

function expectGuardError(outcome: ExecuteOutcome, listed: string, workflow: string): string {
	if (outcome.ok) fail(`${workflow}: the run succeeded; the guard should have stopped it`);
	const message = outcome.error?.message ?? '';
	if (!message.startsWith(`Stopped before any write: ${listed}`)) fail(`${workflow}: expected the guard's error, got: ${message} ${outcome.error?.description ?? ''}`);
	if (!/Vendor SKUs in no input row: MIRE-\d+/.test(message)) fail(`${workflow}: the guard's error names no SKU: ${message}`);
	return message;
}

interface MirrorSummary {
	total: number;
	counts: Record<string, number>;
	missing: Array<{ vendor_sku: string; operation: string }>;
}

/** Calls the 950-row mirror workflow: its summary of the Mirror node's output, the writes it sent, the sandbox after. */
async function mirrorThroughWebhook(ctx: CheckContext, admin: SandboxAdmin) {
	await admin.clearRequests();
	const { status, answer } = await callWebhook(ctx, 'e2e-mirror-950');
	if (status !== 200) fail(`the mirror workflow answered ${status}: ${answer.slice(0, 300)}`);
	const requests = apiRequests(await admin.requests());
	return { summary: JSON.parse(answer) as MirrorSummary, writes: writesOf(requests), reads: requests.filter((r) => r.method === 'GET').length, state: await admin.state() };
}

/** The guard stops the workflow's run with its error naming `listed` and SKUs, and nothing is written. */
function guardCheck(what: string, workflow: string, listed: string): Check {
	return workflowCheck({
		name: `item mirror, the guard: ${what}`,
		workflow,
		setup: seedCatalogue,
		verify({ outcome, requests, state }) {
			const message = expectGuardError(outcome, listed, workflow);
			expectNoWrite(requests, state, `the guard (${workflow})`);
			return message.slice(0, 160);
		},
	});
}

export const mirrorChecks: Check[] = [
	sandboxCheck('server', 'item mirror: 950 source rows against 1,000 listed: the 50 others set to 0, each once, nothing else written; run 2 writes nothing (production runs remember)', async (ctx, admin) => {
		await admin.reset();
		await seedCatalogue(admin);
		const id = ctx.workflowId('item-mirror-950-webhook');
		await ctx.server!.api.activate(id);
		try {
			// Production executions (webhook): n8n saves the workflow's static data, the memory of the items set to 0.
			const first = await mirrorThroughWebhook(ctx, admin);
			const byId = new Map(first.state.items.map((item) => [String(item.item_id), item.vendor_sku]));
			const zeroings = first.writes.filter((r) => r.method === 'PATCH' && JSON.stringify(r.body) === '{"quantity":0}');
			if (zeroings.length !== first.writes.length) fail(`writes other than the zeroings: ${describeRequests(first.writes.filter((r) => !zeroings.includes(r)).slice(0, 5))}`);
			expectEqual(zeroings.map((r) => byId.get(r.path.split('/').pop()!)).sort(), [...MISSING].sort(), 'items PATCHed to quantity 0 (each once)');
			const atZero = first.state.items.filter((item) => item.vendor_sku.startsWith(PREFIX) && item.quantity === 0).map((item) => item.vendor_sku);
			expectEqual(atZero.sort(), [...MISSING].sort(), 'items at quantity 0 afterwards');
			expectEqual([first.summary.total, first.summary.counts], [LISTED, { 'not applied': 950, 'set to 0': 50 }], 'output items per operation (950 rows, then the 50 set to 0)');
			expectEqual(first.summary.missing.map((item) => item.vendor_sku).sort(), [...MISSING].sort(), 'output items of the items set to 0');

			const second = await mirrorThroughWebhook(ctx, admin);
			if (second.writes.length) fail(`run 2 made ${second.writes.length} write(s): ${describeRequests(second.writes.slice(0, 5))}`);
			expectEqual(second.summary.counts, { 'not applied': 950 }, 'run 2 output items per operation');
			return `run 1: 50 PATCH {quantity: 0}, ${first.reads} reads; run 2: no write (${second.reads} reads)`;
		} finally {
			await ctx.server!.api.deactivate(id);
		}
	}),
	workflowCheck({
		name: 'item mirror, Preview Only: lists exactly the 50 items that would be set to 0, no write',
		workflow: 'item-mirror-preview',
		setup: seedCatalogue,
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'item-mirror-preview');
			expectNoWrite(requests, state, 'Preview Only');
			const listed = outputOf(outcome, 'Mirror').filter((item) => item.missingFromInput === true);
			expectEqual(listed.map((item) => [item.operation, item.vendor_sku]).sort(), MISSING.map((sku) => ['would set to 0', sku]).sort(), 'items the preview lists');
			return '50 "would set to 0", no write';
		},
	}),
	guardCheck('a source of 500 rows against 1,000 listed stops before any write, naming the count and SKUs', 'item-mirror-500', 'the run would set 500 of 1,000 items that could be set to 0'),
	guardCheck('an empty source read (Always Output Data: one empty item) stops before any write', 'item-mirror-empty', 'the run would set 1,000 of 1,000 items that could be set to 0'),
	workflowCheck({
		name: 'item mirror: refused with Request Options → Batching on, no request',
		workflow: 'item-mirror-batching',
		setup: seedCatalogue,
		verify({ outcome, requests }) {
			if (outcome.ok) fail('the run succeeded; Batching should have been refused');
			if (!/Batching is on/.test(outcome.error?.message ?? '')) fail(`expected the Batching refusal, got: ${outcome.error?.message ?? ''}`);
			const sent = apiRequests(requests);
			if (sent.length) fail(`requests were sent: ${describeRequests(sent.slice(0, 5))}`);
			return outcome.error!.message!;
		},
	}),
];
