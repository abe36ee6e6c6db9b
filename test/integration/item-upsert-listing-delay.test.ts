// Create or Update as a schedule runs it, against a service that lists a new item only some time after accepting it
// and does not refuse a repeated vendor_sku: each SKU is created exactly once, through every run in that window, a
// manual run, a lost answer, and SKUs the listings send as numbers. Runs carry the workflow's static data from one to
// the next as n8n does after production executions (mode 'trigger'); a manual run's static data is not kept.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { buildWorkflow, packageNodeType, runWorkflow } from '../harness';
import { forgetProcessLedger } from '../../nodes/ConsignmentVendor/resources/item/helpers/submissionLedger';
import { itemWriteParameters, ItemSuite, validItem } from './item-harness';
import { NODE_NAME, outputOf } from './nodeRun.helpers';

const suite = new ItemSuite().install();

const upsert = (extra: INodeParameters = {}): INodeParameters => itemWriteParameters('upsert', extra);

async function run(parameters: INodeParameters, rows: IDataObject[], staticData: IDataObject, mode: 'trigger' | 'manual' = 'trigger') {
	await suite.sandbox.admin.clearRequests();
	const workflow = buildWorkflow({ type: packageNodeType('consignmentVendor'), name: NODE_NAME, parameters, credential: suite.store.get('cred-1') });
	const result = await runWorkflow(workflow, { credentials: suite.store, inputItems: rows, staticData, mode });
	expect(result.error).toBeUndefined();
	const requests = await suite.apiRequests();
	const items = outputOf(result).map((item) => item.json);
	return { items, operations: items.map((json) => json.operation), posts: requests.filter((r) => r.method === 'POST'), writes: requests.filter((r) => r.method !== 'GET') };
}

const copiesOf = async (sku: string) => (await suite.sandbox.admin.state()).items.filter((item) => item.vendor_sku.toLowerCase() === sku.toLowerCase()).length;
const skus = (prefix: string, count: number) => Array.from({ length: count }, (_, n) => `${prefix}-${n}`);

beforeEach(async () => {
	forgetProcessLedger(); // each test is a fresh n8n process
	await suite.sandbox.admin.setItemSettings({ listingDelaySeconds: 90, allowDuplicateSkus: true });
});

describe('a service that lists new items 90 s after accepting them', () => {
	it.each([
		['Only Send What Changed off', {}],
		['Only Send What Changed on', { onlySendWhatChanged: true }],
	])('three scheduled runs 20 s apart create each of 30 SKUs once (%s)', async (_label, options) => {
		const staticData: IDataObject = {};
		const rows = skus('DELAY', 30).map((sku) => validItem(sku));
		const first = await run(upsert(options), rows, staticData);
		expect(first.operations.every((operation) => operation === 'created')).toBe(true);
		for (let scheduled = 2; scheduled <= 3; scheduled++) {
			await suite.sandbox.admin.advanceClock(20);
			const again = await run(upsert(options), rows, staticData);
			expect(again.posts).toEqual([]);
			expect(new Set(again.operations)).toEqual(new Set(['awaiting the service']));
			expect(again.items[0]).toMatchObject({ status: 'submitted', vendor_sku: 'DELAY-0', submitted_at: expect.any(String) });
		}
		for (const sku of skus('DELAY', 30)) expect(await copiesOf(sku)).toBe(1);

		// Once the service lists them, the rows are found again: nothing waits any more.
		await suite.sandbox.admin.advanceClock(60);
		const listed = await run(upsert(options), rows, staticData);
		expect(listed.posts).toEqual([]);
		expect(listed.operations).not.toContain('awaiting the service');
		expect(Object.keys(((staticData.global as IDataObject | undefined)?.submissionLedger as IDataObject | undefined) ?? {})).toEqual([]);
	});

	it('a row changed while it awaits the service is still not sent again', async () => {
		const staticData: IDataObject = {};
		await run(upsert(), [validItem('DELAY-EDIT')], staticData);
		const edited = await run(upsert(), [validItem('DELAY-EDIT', { quantity: 3 })], staticData);
		expect(edited.operations).toEqual(['awaiting the service']);
		expect(await copiesOf('DELAY-EDIT')).toBe(1);
	});

	it('a manual run protects the next scheduled run in the same n8n process (its static data is not saved)', async () => {
		const manualStaticData: IDataObject = {};
		await run(upsert(), [validItem('DELAY-MANUAL')], manualStaticData, 'manual');
		const scheduled = await run(upsert(), [validItem('DELAY-MANUAL')], {});
		expect(scheduled.operations).toEqual(['awaiting the service']);
		expect(await copiesOf('DELAY-MANUAL')).toBe(1);
	});

	it('after a restart the saved static data still holds the submission back', async () => {
		const staticData: IDataObject = {};
		await run(upsert(), [validItem('DELAY-RESTART')], staticData);
		forgetProcessLedger();
		expect((await run(upsert(), [validItem('DELAY-RESTART')], staticData)).posts).toEqual([]);
	});

	it('a creation whose answer was lost is held back as "outcome unknown", never re-sent blind', async () => {
		const staticData: IDataObject = {};
		await suite.sandbox.admin.addFault({ kind: 'drop', method: 'POST', pathPrefix: '/v1/consignments/' });
		const lost = await runWorkflow(
			buildWorkflow({
				type: packageNodeType('consignmentVendor'),
				name: NODE_NAME,
				parameters: upsert(),
				credential: suite.store.get('cred-1'),
				settings: { onError: 'continueRegularOutput' },
			}),
			{ credentials: suite.store, inputItems: [validItem('DELAY-LOST')], staticData, mode: 'trigger' },
		);
		expect(JSON.stringify(outputOf(lost)[0].json)).toMatch(/Outcome unknown/);
		const next = await run(upsert(), [validItem('DELAY-LOST')], staticData);
		expect(next.posts).toEqual([]);
		expect(next.items[0]).toMatchObject({ operation: 'awaiting the service', status: 'outcome unknown' });
	});

	it('Send Again sends a row the service refused after accepting it, at once', async () => {
		const staticData: IDataObject = {};
		await suite.sandbox.admin.addFault({ kind: 'status', status: 200, body: {}, method: 'POST', pathPrefix: '/v1/consignments/' });
		await run(upsert(), [validItem('DELAY-REFUSED')], staticData);
		expect((await run(upsert(), [validItem('DELAY-REFUSED')], staticData)).operations).toEqual(['awaiting the service']);
		const sent = await run(upsert({ sendAgain: 'DELAY-REFUSED' }), [validItem('DELAY-REFUSED')], staticData);
		expect(sent.operations).toEqual(['created']);
	});

	it('Preview Only says "awaiting the service" too, and leaves the memory as it was', async () => {
		const staticData: IDataObject = {};
		await run(upsert(), [validItem('DELAY-PREVIEW')], staticData);
		const saved = JSON.stringify(staticData);
		const preview = await run(upsert({ previewOnly: true }), [validItem('DELAY-PREVIEW')], staticData);
		expect(preview.items[0]).toMatchObject({ preview: 'awaiting the service' });
		expect(JSON.stringify(staticData)).toBe(saved);
	});
});

describe('SKUs the listings send as JSON numbers', () => {
	it('are found and updated, not created again', async () => {
		await suite.sandbox.admin.setItemSettings({ listingDelaySeconds: 0, numericSkusAsNumbers: true });
		const numeric = Array.from({ length: 23 }, (_, n) => String(7300100 + n));
		await run(upsert(), numeric.map((sku) => validItem(sku)), {});
		const again = await run(upsert(), numeric.map((sku) => validItem(sku, { quantity: 3 })), {});
		expect(again.posts).toEqual([]);
		expect(new Set(again.operations)).toEqual(new Set(['updated']));
		for (const sku of numeric) expect(await copiesOf(sku)).toBe(1);
	});
});

describe('a service that holds two items with one SKU (it does not refuse a repeated vendor_sku)', () => {
	it('Create or Update fails that row alone, naming both item_ids, and sends it nothing; the other rows go on', async () => {
		await suite.sandbox.admin.setItemSettings({ listingDelaySeconds: 0 });
		const first = await run(upsert({ newItemsListedWithin: 0 }), [validItem('TWICE-1')], {});
		expect(first.operations).toEqual(['created']);
		// A second creation of the same SKU by another tool: the service now lists two items with it.
		await run({ ...upsert(), operation: 'create' }, [validItem('TWICE-1')], {});
		expect(await copiesOf('TWICE-1')).toBe(2);

		await suite.sandbox.admin.clearRequests();
		const workflow = buildWorkflow({
			type: packageNodeType('consignmentVendor'),
			name: NODE_NAME,
			parameters: upsert(),
			credential: suite.store.get('cred-1'),
			settings: { onError: 'continueRegularOutput' },
		});
		const result = await runWorkflow(workflow, { credentials: suite.store, inputItems: [validItem('TWICE-1', { quantity: 3 }), validItem('SBX-1001')], mode: 'trigger', staticData: {} });
		const [twice, other] = outputOf(result).map((item) => item.json);
		const ids = (await suite.sandbox.admin.state()).items.filter((item) => item.vendor_sku === 'TWICE-1').map((item) => String(item.item_id));
		expect(twice.error).toMatch(new RegExp(`vendor_sku TWICE-1 matches 2 items \\(item_id ${ids.join(', ')}\\).*Nothing was sent for this row`));
		expect(twice.message).toMatch(/Item → Update/);
		expect(other.operation).toBe('updated');
		const writes = (await suite.apiRequests()).filter((request) => request.method !== 'GET');
		expect(writes.map((request) => request.path)).toEqual([`/v1/items/${(await suite.storedItem('SBX-1001')).item_id}`]);
	});
});
