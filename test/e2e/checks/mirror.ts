// Create or Update as a mirror of its source (issue 29) in real n8n: 1,000 listed items, a source of 950 rows sets the
// 50 others to 0 (each once, nothing else written); the guard stops a source of 500 rows and an empty source read
// with no write and a clear error; Preview lists exactly the 50; Batching is refused.
import type { SandboxAdmin } from '../../sandbox/admin-client';
import type { RequestLogEntry, SandboxStateSnapshot } from '../../sandbox/types';
import { apiRequests, describeRequests, expectEqual, expectSuccess, outputOf } from './expect';
import type { ExecuteOutcome } from '../lib/n8n-cli';
import { fail, type Check } from './types';
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
	if (!/Vendor SKUs: MIRE-\d+/.test(message)) fail(`${workflow}: the guard's error names no SKU: ${message}`);
	return message;
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
	workflowCheck({
		name: 'item mirror: 950 source rows against 1,000 listed: the 50 others set to 0, each once, nothing else written',
		workflow: 'item-mirror-950',
		setup: seedCatalogue,
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'item-mirror-950');
			const writes = writesOf(requests);
			const byId = new Map(state.items.map((item) => [String(item.item_id), item.vendor_sku]));
			const zeroings = writes.filter((r) => r.method === 'PATCH' && JSON.stringify(r.body) === '{"quantity":0}');
			if (zeroings.length !== writes.length) fail(`writes other than the 50 zeroings: ${describeRequests(writes.filter((r) => !zeroings.includes(r)).slice(0, 5))}`);
			expectEqual(zeroings.map((r) => byId.get(r.path.split('/').pop()!)).sort(), [...MISSING].sort(), 'items PATCHed to quantity 0 (each once)');
			const atZero = state.items.filter((item) => item.vendor_sku.startsWith(PREFIX) && item.quantity === 0).map((item) => item.vendor_sku);
			expectEqual(atZero.sort(), [...MISSING].sort(), 'items at quantity 0 afterwards');
			const output = outputOf(outcome, 'Mirror');
			expectEqual(output.length, LISTED, 'output items (950 rows + 50 set to 0)');
			const extra = output.slice(950);
			expectEqual(extra.map((item) => item.operation).filter((operation) => operation !== 'set to 0'), [], 'outcome of the 50 extra output items');
			const hints = (outcome.runData?.Mirror?.[0]?.hints ?? []).map((hint) => hint.message);
			expectEqual(hints, ['1,000 items: 950 not applied · 50 set to 0'], 'run summary');
			return `50 PATCH {quantity: 0}, ${apiRequests(requests).length - writes.length} reads; summary "${hints[0]}"`;
		},
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
	guardCheck('a source of 500 rows against 1,000 listed stops before any write, naming the count and SKUs', 'item-mirror-500', '500 of 1,000 listed items'),
	guardCheck('an empty source read (Always Output Data: one empty item) stops before any write', 'item-mirror-empty', '1,000 of 1,000 listed items'),
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
