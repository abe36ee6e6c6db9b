// Only Send What Changed never hides a missing item: a creation is skipped next time only once the service shows
// the item; one it answered "submitted" but never shows is sent again; SKUs the listings no longer show leave the
// memory; the consignment is part of what makes a row "changed". Runs carry the workflow's static data from one to
// the next, as n8n does after production runs.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { buildWorkflow, packageNodeType, runWorkflow } from '../harness';
import { ITEM_PARAMETERS_FROM_JSON, ItemSuite, validItem } from './item-harness';
import { NODE_NAME, outputOf } from './nodeRun.helpers';

const suite = new ItemSuite().install();

const upsert = (consignment = 'cons_12345'): INodeParameters => ({
	resource: 'item',
	operation: 'upsert',
	consignmentId: { __rl: true, mode: 'id', value: consignment },
	onlySendWhatChanged: true,
	...ITEM_PARAMETERS_FROM_JSON,
});

async function run(parameters: INodeParameters, rows: IDataObject[], staticData: IDataObject) {
	await suite.sandbox.admin.clearRequests();
	const workflow = buildWorkflow({ type: packageNodeType('consignmentVendor'), name: NODE_NAME, parameters, credential: suite.store.get('cred-1') });
	const result = await runWorkflow(workflow, { credentials: suite.store, inputItems: rows, staticData, mode: 'trigger' });
	expect(result.error).toBeUndefined();
	const requests = await suite.apiRequests();
	return { operations: outputOf(result).map((item) => item.json.operation), requests, writes: requests.filter((r) => r.method !== 'GET') };
}

/** The service answers the next creation request 200 `{}` without creating anything: it refused the items later. */
async function acceptThenRefuseNextCreation() {
	await suite.sandbox.admin.addFault({ kind: 'status', status: 200, body: {}, method: 'POST', pathPrefix: '/v1/consignments/' });
}

const existsInSandbox = async (sku: string) => (await suite.sandbox.admin.state()).items.some((item) => item.vendor_sku === sku);
const rememberedSkus = (staticData: IDataObject) =>
	Object.keys(((staticData[`node:${NODE_NAME}`] as IDataObject | undefined)?.sentItems as IDataObject | undefined) ?? {}).sort();

describe('Only Send What Changed: creations', () => {
	it('a creation answered "submitted" that the service never shows is sent again with Send Again', async () => {
		const staticData: IDataObject = {};
		await acceptThenRefuseNextCreation();
		const first = await run(upsert(), [validItem('MEM-LOST-1')], staticData);
		expect(first.operations).toEqual(['created']);
		expect(await existsInSandbox('MEM-LOST-1')).toBe(false);

		// Within the window the service may still be processing it (item-upsert-listing-delay.test.ts).
		expect((await run(upsert(), [validItem('MEM-LOST-1')], staticData)).operations).toEqual(['awaiting the service']);
		const second = await run({ ...upsert(), sendAgain: 'MEM-LOST-1' }, [validItem('MEM-LOST-1')], staticData);
		expect(second.operations).toEqual(['created']);
		expect(second.writes.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/consignments/cons_12345/items']);
		expect(await existsInSandbox('MEM-LOST-1')).toBe(true);
	});

	it('a creation the service shows is confirmed by the next run (no write) and skipped with no request after that', async () => {
		const staticData: IDataObject = {};
		await run(upsert(), [validItem('MEM-NEW-1')], staticData);

		const second = await run(upsert(), [validItem('MEM-NEW-1')], staticData);
		expect(second.operations).toEqual(['unchanged']);
		expect(second.writes).toEqual([]);
		expect(second.requests.map((r) => r.path)).toEqual(['/v1/items/non_approved']); // the lookup that found it

		const third = await run(upsert(), [validItem('MEM-NEW-1')], staticData);
		expect(third.operations).toEqual(['unchanged']);
		expect(third.requests).toEqual([]);
	});

	it('listings read in full confirm the creations they show and drop every SKU they do not show', async () => {
		const staticData: IDataObject = {};
		const refused = Array.from({ length: 20 }, (_, n) => validItem(`MEM-REFUSED-${n}`));
		const created = Array.from({ length: 20 }, (_, n) => validItem(`MEM-MADE-${n}`));
		await acceptThenRefuseNextCreation();
		await run(upsert(), refused, staticData);
		expect(rememberedSkus(staticData)).toHaveLength(20);

		// 20 other rows: the listings are read (2 pages), and show none of the refused SKUs.
		const second = await run(upsert(), created, staticData);
		expect(second.requests.filter((r) => r.method === 'GET' && r.query.vendor_sku === undefined)).toHaveLength(2);
		expect(rememberedSkus(staticData)).toEqual(created.map((row) => String(row.sku).toLowerCase()).sort());

		// The created ones are shown by the listings of the next run: confirmed, skipped, no write.
		const third = await run(upsert(), created, staticData);
		expect(third.operations.every((operation) => operation === 'unchanged')).toBe(true);
		expect(third.writes).toEqual([]);
	});
});

describe('Only Send What Changed: what makes a row changed', () => {
	it('the same row for another consignment is sent again', async () => {
		const staticData: IDataObject = {};
		const row = validItem('SBX-1001', { quantity: 1 });
		await run(upsert('cons_12345'), [row], staticData);
		expect((await run(upsert('cons_12345'), [row], staticData)).requests).toEqual([]);

		const moved = await run(upsert('cons_67890'), [row], staticData);
		expect(moved.operations).toEqual(['updated']);
		expect(moved.writes.map((r) => r.method)).toEqual(['PATCH']);
	});
});

describe('Only Send What Changed: the skipped rows are checked against the service now and then', () => {
	const nodeData = (staticData: IDataObject) => staticData[`node:${NODE_NAME}`] as IDataObject;
	const sevenHoursAgo = () => Date.now() - 7 * 3_600_000;

	it('a check finds the unchanged rows still listed (reads, no write) and sends the row of an item deleted at the service', async () => {
		const staticData: IDataObject = {};
		const rows = [validItem('MEM-CHECK-1'), validItem('MEM-CHECK-2')];
		await run(upsert(), rows, staticData);
		await run(upsert(), rows, staticData); // the listings show both: confirmed
		expect((await run(upsert(), rows, staticData)).requests).toEqual([]);

		const gone = (await suite.storedItem('MEM-CHECK-2')).item_id;
		await suite.sandbox.admin.setItemStatus(gone, 'deleted');
		// Within 6 hours of the last check the memory is trusted: no request.
		expect((await run(upsert(), rows, staticData)).requests).toEqual([]);

		nodeData(staticData).sentItemsVerifiedAt = sevenHoursAgo();
		const checked = await run(upsert(), rows, staticData);
		expect(checked.operations).toEqual(['unchanged', 'updated']);
		expect(checked.writes.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /v1/items/${gone}`]);
		expect(nodeData(staticData).sentItemsVerifiedAt).toBeGreaterThan(Date.now() - 60_000);
	});
});

describe('Only Send What Changed: overlapping runs of one node', () => {
	/** n8n: each execution loads the static data as last saved, and a production run that changed it saves it whole. */
	class SavedStaticData {
		private saved: IDataObject = {};

		async run(rows: IDataObject[]) {
			const loaded = JSON.parse(JSON.stringify(this.saved)) as IDataObject;
			const result = await run(upsert(), rows, loaded);
			if ((loaded as { __dataChanged?: boolean }).__dataChanged === true) this.saved = JSON.parse(JSON.stringify(loaded)) as IDataObject;
			return result;
		}
	}

	it('a row written by a run that ended first is not called unchanged after the other run saves (the last save keeps both)', async () => {
		const workflow = new SavedStaticData();
		const sheetPrice = validItem('MEM-OVER-1', { price: 129900 });
		await workflow.run([sheetPrice]);
		expect((await workflow.run([sheetPrice])).operations).toEqual(['unchanged']); // confirmed, remembered

		// A slow run (its first lookup answered 1.5 s late) begins; meanwhile a quick run writes a new price and ends.
		await suite.sandbox.admin.addFault({ kind: 'latency', ms: 1500, method: 'GET', pathPrefix: '/v1/items', count: 1 });
		const slow = workflow.run([validItem('MEM-OVER-2')]);
		await new Promise((resolve) => setTimeout(resolve, 300));
		expect((await workflow.run([validItem('MEM-OVER-1', { price: 99900 })])).operations).toEqual(['updated']);
		await slow; // saved last, from what it loaded before the quick run wrote

		// The sheet goes back to the old price: the service holds the new one, so the row is sent.
		const back = await workflow.run([sheetPrice]);
		expect(back.operations).toEqual(['updated']);
		expect((await suite.storedItem('MEM-OVER-1')).price).toBe(129900);
	});
});
