// Output: File on the list operations, through n8n's real engine against the sandbox: the file read back holds
// every record exactly once (parts included), CSV as spreadsheets read it, and what the listings already do
// (Limit, cursor expiry, Continue On Fail) holds in file mode. Binary data here is n8n's in-memory mode; the
// filesystem mode is in list-file-storage.test.ts.
import { SIMPLIFIED_ITEM_FIELDS } from '../../nodes/ConsignmentVendor/resources/item/helpers/listFilters';
import { readCsvPart, readJsonLinesPart } from './list-file.helpers';
import { runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

const approvedToFile = { resource: 'item', operation: 'getAll', validationStatus: 'approved', returnAll: true, output: 'file' };

/** The approved items in the sandbox (26 seeded + `extra`), by item_id. */
async function seedApproved(extra: number) {
	if (extra > 0) await sandbox().admin.seedManyItems({ count: extra, status: 'approved' });
	const { items } = await sandbox().admin.state();
	return items.filter((i) => i.validation_status === 'approved').sort((a, b) => a.item_id - b.item_id);
}

describe('Output: File, CSV', () => {
	it('a listing of 5 pages: one file, a header of the Simplify columns, every record once, ids as text, prices in cents', async () => {
		const expected = await seedApproved(474);
		const { result, items, requests } = await runNode(sandbox(), { ...approvedToFile, simplify: true });
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(5);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ fileName: 'items.csv', fileFormat: 'csv', part: 1, parts: 1, records: 500, filters: { validation_status: 'approved' } });
		expect(items[0].binary?.data).toMatchObject({ fileName: 'items.csv', mimeType: 'text/csv', fileExtension: 'csv' });
		const { header, records } = await readCsvPart(items[0]);
		expect(header).toEqual(SIMPLIFIED_ITEM_FIELDS);
		expect(records.map((r) => Number(r.item_id))).toEqual(expected.map((i) => i.item_id));
		expect(records[0].price).toBe(String(expected[0].price));
		expect(records[0].id).toMatch(/^\d+$/);
	});

	it('in parts: each part a whole CSV with its header and within Max Part Size, the records once across the parts', async () => {
		const expected = await seedApproved(474);
		const maxPartSizeMb = 0.02;
		const { result, items } = await runNode(sandbox(), { ...approvedToFile, simplify: true, maxPartSizeMb, fileOptions: { fileName: 'nightly.csv' } });
		expect(result.error).toBeUndefined();
		expect(items.length).toBeGreaterThan(3);
		const ids: number[] = [];
		for (const [index, item] of items.entries()) {
			expect(item.json).toMatchObject({ part: index + 1, parts: items.length, fileName: `nightly-part-${index + 1}.csv`, totalRecords: 500 });
			expect(item.binary!.data.bytes ?? Buffer.from(item.binary!.data.data, 'base64').length).toBeLessThanOrEqual(maxPartSizeMb * 1024 * 1024);
			const part = await readCsvPart(item);
			expect(part.header).toEqual(SIMPLIFIED_ITEM_FIELDS);
			expect(part.records).toHaveLength(item.json.records as number);
			ids.push(...part.records.map((r) => Number(r.item_id)));
		}
		expect(ids).toEqual(expected.map((i) => i.item_id));
	});

	it('every field (Simplify off): the first page\'s columns and other_fields, every field of every record', async () => {
		const expected = await seedApproved(0);
		const { result, items } = await runNode(sandbox(), { ...approvedToFile, simplify: false });
		expect(result.error).toBeUndefined();
		const { header, records } = await readCsvPart(items[0]);
		expect(header).toEqual([...Object.keys(records[0]).filter((c) => c !== 'other_fields'), 'other_fields']);
		expect(header).toEqual(expect.arrayContaining(['id', 'item_id', 'vendor_sku', 'price', 'designer', 'description', 'created_at']));
		expect(records.map((r) => [Number(r.item_id), r.description, Number(r.price)])).toEqual(expected.map((i) => [i.item_id, i.description, i.price]));
	});

	it('the non-approved listing: its price objects in cents with a currency column, and dollars beside them (Price Columns)', async () => {
		const { result, items } = await runNode(sandbox(), {
			resource: 'item',
			operation: 'getNonApproved',
			returnAll: true,
			simplify: true,
			output: 'file',
			fileOptions: { priceColumns: 'centsAndDollars' },
		});
		expect(result.error).toBeUndefined();
		const { header, records } = await readCsvPart(items[0]);
		expect(header.slice(header.indexOf('price'), header.indexOf('price') + 3)).toEqual(['price', 'price_currency', 'price_dollars']);
		expect(records.length).toBeGreaterThan(0);
		for (const record of records) {
			expect(record.price).toMatch(/^\d+$/);
			expect(record.price_currency).toMatch(/^[A-Z]{3}$/);
			expect(Number(record.price_dollars) * 100).toBeCloseTo(Number(record.price), 6);
		}
	});
});

describe('Output: File, JSON Lines', () => {
	it('Limit 130: 130 whole records, one per line, ids as text', async () => {
		await seedApproved(474);
		const { result, items, requests } = await runNode(sandbox(), { ...approvedToFile, returnAll: false, limit: 130, fileFormat: 'jsonLines' });
		expect(result.error).toBeUndefined();
		expect(requests.map((r) => r.query.page_size)).toEqual(['20', '20', '20', '20', '20', '20', '10']);
		expect(items[0].json).toMatchObject({ fileName: 'items.jsonl', records: 130 });
		const lines = await readJsonLinesPart(items[0]);
		expect(lines).toHaveLength(130);
		expect(new Set(lines.map((l) => l.id)).size).toBe(130);
		expect(typeof lines[0].item_id).toBe('string');
		expect(lines[0]).toHaveProperty('description');
	});
});

describe('what the listings do holds in file mode', () => {
	it('a cursor expiring mid-export: the file holds every record exactly once', async () => {
		const expected = await seedApproved(474);
		await sandbox().admin.addFault({ kind: 'status', status: 400, pathPrefix: '/v1/items', skip: 3, body: { error: 'after cursor has expired' } });
		const { result, items } = await runNode(sandbox(), { ...approvedToFile, simplify: true, fileFormat: 'jsonLines' });
		expect(result.error).toBeUndefined();
		const lines = await readJsonLinesPart(items[0]);
		expect(lines.map((l) => Number(l.item_id))).toEqual(expected.map((i) => i.item_id));
	});

	it('a page failing mid-export: the node fails and outputs no part', async () => {
		await seedApproved(474);
		await sandbox().admin.addFault({ kind: 'status', status: 500, pathPrefix: '/v1/items', skip: 3 });
		const { result, items } = await runNode(sandbox(), { ...approvedToFile, maxPartSizeMb: 0.01 });
		expect(result.error?.message).toBeDefined();
		expect(items).toHaveLength(0);
	});

	it('with Continue On Fail: the failed input item gives one error item and no file, the next its file', async () => {
		await seedApproved(474);
		await sandbox().admin.addFault({ kind: 'status', status: 500, pathPrefix: '/v1/items', skip: 3 });
		const { result, items } = await runNode(sandbox(), { ...approvedToFile, maxPartSizeMb: 0.01, simplify: true }, { inputItems: [{}, {}], settings: { continueOnFail: true } });
		expect(result.error).toBeUndefined();
		expect(items[0].json.error).toBeDefined();
		expect(items[0].binary).toBeUndefined();
		expect(items.slice(1).every((item) => item.binary?.data !== undefined && item.pairedItem !== undefined)).toBe(true);
		expect(items.slice(1).reduce((sum, item) => sum + (item.json.records as number), 0)).toBe(500);
	});
});
