// Upsert at scale through n8n's engine against the sandbox: what finding the rows costs (one read of the
// listings, or lookups, whichever is cheaper), and Only Send What Changed across runs (the workflow's static data
// carried from one run to the next, as n8n does after production runs).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { buildWorkflow, packageNodeType, runWorkflow } from '../harness';
import type { RequestLogEntry } from '../sandbox';
import { itemWriteParameters, ItemSuite, validItem } from './item-harness';
import { NODE_NAME, outputOf } from './nodeRun.helpers';

const suite = new ItemSuite().install();

const upsert = (extra: INodeParameters = {}): INodeParameters => itemWriteParameters('upsert', extra);

async function run(parameters: INodeParameters, rows: IDataObject[], staticData?: IDataObject) {
	await suite.sandbox.admin.clearRequests();
	const workflow = buildWorkflow({ type: packageNodeType('consignmentVendor'), name: NODE_NAME, parameters, credential: suite.store.get('cred-1') });
	const result = await runWorkflow(workflow, { credentials: suite.store, inputItems: rows, staticData, mode: 'trigger' });
	// A long run with no API request outlives the sandbox's keep-alive: fetch may meet a socket the server closed.
	const requests = await suite.apiRequests().catch(async () => await suite.apiRequests());
	const writes = requests.filter((r) => r.method !== 'GET');
	const others = requests.filter((r) => r.method === 'GET');
	return { result, requests, writes, others };
}

const listingRequests = (requests: RequestLogEntry[]) => requests.filter((r) => r.method === 'GET' && r.query.vendor_sku === undefined);
const lookups = (requests: RequestLogEntry[]) => requests.filter((r) => r.method === 'GET' && r.query.vendor_sku !== undefined);

/** 20,000 existing items: SCALE-1..10000 pending, SCALE-10001..20000 approved (quantity 1). */
async function seedExisting() {
	await suite.sandbox.admin.seedManyItems({ count: 10_000, status: 'pending', skuPrefix: 'SCALE-', firstNumber: 1 });
	await suite.sandbox.admin.seedManyItems({ count: 10_000, status: 'approved', skuPrefix: 'SCALE-', firstNumber: 10_001 });
}

/** 5,000 rows: 4,000 pending items (updated), 500 approved ones (nothing they take changed), 500 new. */
function rows(change: (n: number) => IDataObject = () => ({})): IDataObject[] {
	const sku = (n: number) => (n <= 4_000 ? `SCALE-${n}` : n <= 4_500 ? `SCALE-${10_000 + n}` : `NEW-${n}`);
	return Array.from({ length: 5_000 }, (_, i) => validItem(sku(i + 1), { quantity: 1, ...change(i + 1) }));
}

describe('Upsert of 5,000 rows against 20,000 existing items, with Only Send What Changed', () => {
	it('run 1 reads the two listings once (no lookup); run 2 confirms the 500 creations in the listings and writes nothing; run 3 makes no request; run 4 sends the 100 changed', async () => {
		await seedExisting();
		const staticData: IDataObject = {};
		const first = await run(upsert({ onlySendWhatChanged: true }), rows(), staticData);
		expect(first.result.error).toBeUndefined();
		const output = outputOf(first.result);
		expect(output).toHaveLength(5_000);
		expect(output.filter((i) => i.json.operation === 'updated').length).toBe(4_000);
		// The approved listing shows no quantity, and the other fields are not applied to approved items: no PATCH.
		expect(output.filter((i) => i.json.operation === 'not applied').length).toBe(500);
		expect(output.filter((i) => i.json.operation === 'created').length).toBe(500);
		expect(first.writes.filter((w) => w.method === 'PATCH').length).toBe(4_000);
		expect(first.writes.filter((w) => w.method === 'POST').length).toBe(1);
		expect(lookups(first.requests).length).toBe(0);
		// 10,026 non-approved and 10,026 approved (with the demo data), 100 per page.
		expect(first.others.length).toBe(202);
		expect(first.writes.length + first.others.length).toBeLessThanOrEqual(5_000 + 300);

		// The 500 creations were only submitted: the listings (cheaper than 500 lookups) show them, nothing is written.
		const second = await run(upsert({ onlySendWhatChanged: true }), rows(), staticData);
		expect(second.writes).toHaveLength(0);
		expect(lookups(second.requests).length).toBe(0);
		// Within the listings' known cost and its room for growth (itemCatalog.ts): the new items are there.
		expect(second.others.length).toBeLessThanOrEqual(first.others.length + 2);
		const unchanged = outputOf(second.result);
		expect(unchanged).toHaveLength(5_000);
		expect(unchanged.every((item, index) => item.json.operation === 'unchanged' && (item.pairedItem as { item: number }).item === index)).toBe(true);

		const again = await run(upsert({ onlySendWhatChanged: true }), rows(), staticData);
		expect(again.requests.length).toBe(0);

		const changed = (n: number) => (n % 50 === 0 ? { price: 99_900 } : {});
		const third = await run(upsert({ onlySendWhatChanged: true }), rows(changed), staticData);
		expect(third.result.error).toBeUndefined();
		expect(outputOf(third.result).filter((i) => i.json.operation !== 'unchanged').length).toBe(100);
		expect(third.writes.length).toBeLessThanOrEqual(100);
		// Lookups (100 rows) or one read of the listings, whichever is cheaper: never more than the listings cost.
		expect(third.others.length).toBeLessThanOrEqual(first.others.length);

		const forgotten = await run(upsert({ onlySendWhatChanged: true, forgetWhatWasSent: true }), rows().slice(0, 30), staticData);
		expect(forgotten.writes.length).toBe(30);
	}, 600_000);

	it('a few rows against many items: looked up one by one, no listing read', async () => {
		await seedExisting();
		const few = rows().slice(0, 15);
		const { result, requests } = await run(upsert(), few);
		expect(result.error).toBeUndefined();
		expect(listingRequests(requests).length).toBe(0);
		expect(lookups(requests).length).toBe(15);
	}, 60_000);
});

describe('Only Send What Changed, off', () => {
	it('off by default: the same rows are sent again', async () => {
		const staticData: IDataObject = {};
		const few = [validItem('SBX-1001', { quantity: 1 })];
		await run(upsert(), few, staticData);
		const again = await run(upsert(), few, staticData);
		expect(again.writes).toHaveLength(1);
		expect(JSON.stringify(staticData)).not.toMatch(/sentItems/);
	});
});
