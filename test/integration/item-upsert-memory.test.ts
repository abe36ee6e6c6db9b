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
	it('a creation answered "submitted" that the service never shows is sent again on the next run', async () => {
		const staticData: IDataObject = {};
		await acceptThenRefuseNextCreation();
		const first = await run(upsert(), [validItem('MEM-LOST-1')], staticData);
		expect(first.operations).toEqual(['created']);
		expect(await existsInSandbox('MEM-LOST-1')).toBe(false);

		const second = await run(upsert(), [validItem('MEM-LOST-1')], staticData);
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
