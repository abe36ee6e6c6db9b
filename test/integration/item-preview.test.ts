// Preview Only (Create, Update, Create or Update; both Field Mapping modes): one output item per row saying what a
// real run would do, no write request in the sandbox's request log, Only Send What Changed's memory untouched.
// The run summary in n8n's execution hints (real and preview), and failed rows leaving by the error output with
// their own columns, fixed and fed back through Create or Update with no duplicate.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { buildWorkflow, packageNodeType, runWorkflow, type RunResult } from '../harness';
import { CONTINUE_ON_FAIL, ITEM_PARAMETERS_FROM_JSON, ItemSuite, contractColumnsRow, validItem } from './item-harness';
import { NODE_NAME, outputOf } from './nodeRun.helpers';

const suite = new ItemSuite().install();

const consignmentId = { __rl: true, mode: 'id', value: 'cons_12345' };
const upsert: INodeParameters = { operation: 'upsert', consignmentId, ...ITEM_PARAMETERS_FROM_JSON };
const AUTO_COLUMNS = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

/** A sheet row with contract-named columns (Map Automatically). */
function sheetRow(sku: string, overrides: IDataObject = {}): IDataObject {
	return contractColumnsRow(sku, { gender: 'Women', taxon_specific_attributes: '{}', ...overrides });
}

async function runWithMemory(parameters: INodeParameters, rows: IDataObject[], staticData: IDataObject): Promise<RunResult> {
	const workflow = buildWorkflow({ type: packageNodeType('consignmentVendor'), name: NODE_NAME, parameters: { resource: 'item', ...parameters }, credential: suite.store.get('cred-1') });
	return await runWorkflow(workflow, { credentials: suite.store, inputItems: rows, staticData, mode: 'trigger' });
}

const writes = async () => (await suite.apiRequests()).filter((request) => request.method !== 'GET');
const hintsOf = (result: RunResult) => (result.run.data.resultData.runData[NODE_NAME]?.[0]?.hints ?? []).map((hint) => hint.message);
const verdicts = (result: RunResult) => outputOf(result).map((item) => [item.json.preview, item.pairedItem]);

const seeded = (sku: string) => suite.storedItem(sku);

describe('Preview Only', () => {
	it('Create or Update (mapped manually, Only Send What Changed on): a verdict per row, no write, memory untouched', async () => {
		const staticData: IDataObject = {};
		const unchangedRow = validItem('SBX-1005', { quantity: 1 });
		const createdRow = validItem('PREVIEW-MADE');
		// A real run: SBX-1005 updated (confirmed), PREVIEW-MADE created (submitted, not yet confirmed).
		await runWithMemory({ ...upsert, onlySendWhatChanged: true }, [unchangedRow, createdRow], staticData);
		const memoryBefore = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		await suite.sandbox.admin.clearRequests();

		const pending = await seeded('SBX-1001');
		const rows = [
			validItem('PREVIEW-NEW'),
			validItem('SBX-1001', {
				price: pending.price + 100,
				quantity: pending.quantity,
				designer: pending.designer,
				condition: pending.condition,
				taxon: pending.taxon,
				upc: pending.upc ?? '',
			}),
			unchangedRow,
			validItem('SBX-1004'), // approved: nothing it takes
			validItem('PREVIEW-BAD', { designer: '' }),
			createdRow, // the lookup shows it: unchanged, yet the memory is not saved as confirmed
		];
		const result = await runWithMemory({ ...upsert, onlySendWhatChanged: true, previewOnly: true }, rows, staticData);

		expect(result.error).toBeUndefined();
		expect(await writes()).toEqual([]);
		expect(JSON.parse(JSON.stringify(staticData))).toEqual(memoryBefore);
		expect(Object.keys(memoryBefore)).toEqual(expect.arrayContaining([`node:${NODE_NAME}`, 'global']));
		const output = outputOf(result);
		expect(output.map((item) => [item.json.preview, item.pairedItem])).toEqual([
			['would create', { item: 0 }],
			['would update', { item: 1 }],
			['unchanged', { item: 2 }],
			['not applied', { item: 3 }],
			['invalid', { item: 4 }],
			['unchanged', { item: 5 }],
		]);
		expect(output[0].json).toMatchObject({ vendor_sku: 'PREVIEW-NEW', consignment_id: 'cons_12345' });
		// The listing shows price, designer, condition, taxon and quantity: only the price differs.
		expect(output[1].json).toMatchObject({ item_id: pending.item_id, differs: ['price'] });
		expect(output[1].json.notShown).toEqual(expect.arrayContaining(['image', 'msrp', 'gender']));
		expect(output[3].json.quantityNotSent).toMatch(/was not sent/);
		expect(output[4].json.error).toMatch(/^Item index 4 \(vendor_sku PREVIEW-BAD\): designer is required/);
		expect(hintsOf(result)).toEqual(['Preview (nothing was sent): 6 items: 1 would create · 1 would update · 2 unchanged · 1 not applied · 1 invalid']);
		expect(await suite.sandbox.admin.state().then((state) => state.items.some((item) => item.vendor_sku === 'PREVIEW-NEW'))).toBe(false);
	});

	it('Create (Map Automatically): valid rows would be created, invalid ones say why; no request at all', async () => {
		const result = await suite.run(
			{ operation: 'create', consignmentId, fieldMapping: 'auto', itemColumns: AUTO_COLUMNS, previewOnly: true },
			[sheetRow('AUTO-1'), sheetRow('AUTO-2', { price: '12.5' }), sheetRow('AUTO-1')],
		);

		expect(result.error).toBeUndefined();
		expect(await suite.apiRequests()).toEqual([]);
		expect(verdicts(result)).toEqual([
			['would create', { item: 0 }],
			['invalid', { item: 1 }],
			['invalid', { item: 2 }],
		]);
		expect(outputOf(result)[1].json.error).toMatch(/^Item index 1 \(vendor_sku AUTO-2\): price /);
		expect(outputOf(result)[2].json.error).toMatch(/repeats the vendor_sku of item index 0/);
	});

	it('a new node (1.2) reads a sheet\'s 2100.00 as dollars, and the preview shows each amount in cents and dollars', async () => {
		const result = await suite.runAt(1.2, { operation: 'create', consignmentId, itemColumns: AUTO_COLUMNS, previewOnly: true }, [
			sheetRow('DOLLARS-1', { msrp: '2100.00', price: 650 }),
		]);
		expect(result.error).toBeUndefined();
		expect(outputOf(result)[0].json.amounts).toEqual({
			msrp: { cents: 210000, dollars: '2100.00' },
			price: { cents: 65000, dollars: '650.00' },
		});
	});

	it('Update (all fields mapped automatically, and approved items): what would be sent; no request at all', async () => {
		const pending = await seeded('SBX-1001');
		const all = await suite.run(
			{ operation: 'update', fieldMapping: 'auto', itemColumns: AUTO_COLUMNS, previewOnly: true },
			[sheetRow('SBX-1001', { item_id: pending.item_id }), sheetRow('SBX-1001', { item_id: '' })],
		);
		expect(all.error).toBeUndefined();
		expect(verdicts(all)).toEqual([
			['would update', { item: 0 }],
			['invalid', { item: 1 }],
		]);
		expect(outputOf(all)[0].json.fields).toEqual(expect.arrayContaining(['price', 'designer', 'image']));
		expect(outputOf(all)[1].json.error).toMatch(/Item ID \(item_id\)/);

		const approved = await suite.run(
			{ operation: 'update', itemId: '50005', fieldsToSend: 'approved', approvedItemFields: { addressId: '304', quantity: 1 }, previewOnly: true },
			[{}],
		);
		expect(outputOf(approved)[0].json).toMatchObject({ preview: 'would update', item_id: '50005', fields: ['quantity', 'address_id'], requests: 2 });
		expect(await suite.apiRequests()).toEqual([]);
	});
});

describe('Run summary (execution hints)', () => {
	it('Create with Continue On Fail: counts per outcome', async () => {
		const rows = [validItem('SUM-1'), validItem('SUM-2', { designer: 'Gucc' }), validItem('SUM-3', { price: 0 }), validItem('SUM-4')];
		const result = await suite.run({ operation: 'create', consignmentId, ...ITEM_PARAMETERS_FROM_JSON }, rows, CONTINUE_ON_FAIL);
		expect(hintsOf(result)).toEqual(['4 items: 2 submitted · 0 unconfirmed (sent, but not confirmed by the service) · 1 failed · 1 invalid']);
	});

	it('Create or Update and Update: counts per outcome', async () => {
		const pending = await seeded('SBX-1001');
		const upserted = await suite.run(upsert, [validItem('SUM-NEW'), validItem('SBX-1001', { quantity: 1 }), validItem('SBX-1004')], CONTINUE_ON_FAIL);
		expect(hintsOf(upserted)).toEqual(['3 items: 1 submitted · 0 unconfirmed (sent, but not confirmed by the service) · 1 updated · 1 not applied']);

		const updated = await suite.run(
			{ operation: 'update', fieldMapping: 'auto', itemColumns: AUTO_COLUMNS },
			[sheetRow('SBX-1001', { item_id: pending.item_id, quantity: 1 }), sheetRow('X', { item_id: '999999' }), sheetRow('Y', { item_id: '' })],
			CONTINUE_ON_FAIL,
		);
		expect(hintsOf(updated)).toEqual(['3 items: 1 updated · 1 failed · 1 invalid']);
	});
});

describe('Failed rows back in', () => {
	it('failed rows leave by the error output with their own columns and a text reason; fixed and fed back, every item exists once', async () => {
		const sheet = [sheetRow('LOOP-1'), sheetRow('LOOP-2', { designer: 'Gucc' }), sheetRow('LOOP-3', { price: 'abc' }), sheetRow('SBX-1001', { quantity: 1 })];
		const upsertAuto: INodeParameters = { operation: 'upsert', consignmentId, fieldMapping: 'auto', itemColumns: AUTO_COLUMNS };
		const first = await suite.run(upsertAuto, sheet, { onError: 'continueErrorOutput' });

		expect(first.error).toBeUndefined();
		const [done, failed] = first.outputs[NODE_NAME];
		expect(done.map((item) => item.json.vendor_sku)).toEqual(['LOOP-1', 'SBX-1001']);
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
		for (const [position, row] of failed.entries()) {
			const input = sheet[(row.pairedItem as { item: number }).item];
			// Every input column unchanged, plus `error` (and `message`): flat text a sheet cell holds.
			expect(row.json).toMatchObject(input);
			expect(Object.keys(row.json).sort()).toEqual([...Object.keys(input), 'error', 'message'].sort());
			expect(typeof row.json.error).toBe('string');
			expect(typeof row.json.message).toBe('string');
			expect(row.json.error).toMatch(position === 0 ? /designer is invalid/ : /price/);
		}

		// The sheet is fixed (the error columns stay in it) and the failed rows go through Create or Update again.
		const fixed = failed.map((row) => ({ ...row.json, designer: 'Chanel', price: 129900 }));
		const second = await suite.run(upsertAuto, fixed, { onError: 'continueErrorOutput' });
		expect(second.outputs[NODE_NAME][1]).toEqual([]);
		expect(second.outputs[NODE_NAME][0].map((item) => [item.json.vendor_sku, item.json.operation])).toEqual([
			['LOOP-2', 'created'],
			['LOOP-3', 'created'],
		]);
		// The whole sheet once more (as a user re-running everything would): updates, never a second item.
		await suite.run(upsertAuto, [...sheet.slice(0, 1), ...fixed], { onError: 'continueErrorOutput' });
		const items = (await suite.sandbox.admin.state()).items.filter((item) => item.vendor_sku.startsWith('LOOP-'));
		expect(items.map((item) => item.vendor_sku).sort()).toEqual(['LOOP-1', 'LOOP-2', 'LOOP-3']);
	});
});
