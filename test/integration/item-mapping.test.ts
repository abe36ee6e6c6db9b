// Mapping of the item fields of Create, Update and Upsert through n8n's engine against the sandbox.
// Version 1.1 (one mapping choice): n8n's column mapper only, in its "Map Automatically" mode (input fields named as
// the contract names them, no expression in the node; the default) or its "map each column" mode.
// Version 1 (every workflow saved before 1.1): Field Mapping "Map Automatically" (the same column mapper, with its own
// mode under it), Price Unit in both, errors naming the column and the row, and "Map Each Field Manually" (the
// item parameters) as the default for workflows saved before the selector existed.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CONTINUE_ON_FAIL, ITEM_PARAMETERS_FROM_JSON, ItemSuite, validItem, validItemBody } from './item-harness';
import { outputOf, resultOf } from './nodeRun.helpers';

const suite = new ItemSuite().install();

/** A product sheet row (what Google Sheets "Get Rows" gives): contract-named headers, every cell as text. */
function sheetRow(sku: string, overrides: IDataObject = {}): IDataObject {
	return {
		row_number: 2,
		vendor_sku: sku,
		upc: '',
		taxon_permalink: 'women/handbags/totes',
		condition: 'Excellent',
		with_tags: 'TRUE',
		designer: 'Chanel',
		image_front: `https://img.example.com/${sku}/front.jpg`,
		image_back: `https://img.example.com/${sku}/back.jpg`,
		quantity: '2',
		msrp: '2500.00',
		price: '$1299.99',
		gender: 'Men, Women',
		taxon_specific_attributes: '{"color": "Black", "material": ["Leather"]}',
		address_id: '',
		notes: 'not a service field',
		...overrides,
	};
}

/** The body element the sheet row above becomes (prices in dollars). */
function sentFor(sku: string): IDataObject {
	return validItemBody(sku, { price: 129999, gender: ['Men', 'Women'] });
}

/** The column mapper as the editor saves it in automatic mode (schema left out: the node does not read it). */
const AUTO_COLUMNS = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] };

const consignment = { __rl: true, mode: 'id', value: 'cons_12345' };
const createAuto: INodeParameters = {
	operation: 'create',
	consignmentId: consignment,
	fieldMapping: 'auto',
	priceUnit: 'dollars',
	itemColumns: AUTO_COLUMNS,
};

const seeded = (sku: string) => suite.storedItem(sku);

/** The column mapper in its "map each column" mode, as the editor saves it: a sheet row's values, some set by expressions. */
const DEFINE_BELOW_COLUMNS = {
	mappingMode: 'defineBelow',
	matchingColumns: [],
	schema: [],
	value: {
		...sheetRow('IGNORED'),
		vendor_sku: '={{ $json.SKU }}',
		price: '={{ $json["Price ($)"] }}',
		gender: '["Women"]',
		taxon_specific_attributes: '={{ { color: $json.Color } }}',
	},
};

describe('version 1.1: the column mapper is the only mapping choice', () => {
	it('Create left at its defaults maps sheet rows automatically, where a version-1 node with the same parameters maps manually', async () => {
		const parameters = { operation: 'create', consignmentId: consignment, priceUnit: 'dollars' };
		const result = await suite.runAt(1.1, parameters, [sheetRow('V11-1'), sheetRow('V11-2', { address_id: '301' })]);
		expect(result.error).toBeUndefined();
		const [request] = await suite.apiRequests();
		expect(request.body).toEqual({ items: [sentFor('V11-1'), { ...sentFor('V11-2'), address_id: '301' }] });
		expect(outputOf(result).map((item) => [resultOf(item).status, item.pairedItem])).toEqual([
			['submitted', { item: 0 }],
			['submitted', { item: 1 }],
		]);

		// Version 1 reads the same node as Map Each Field Manually: its item parameters, left empty, which n8n refuses.
		await expect(suite.run(parameters, [sheetRow('V1-1')])).rejects.toThrow(/Parameter "Vendor SKU" is required/);
		expect(await suite.apiRequests()).toHaveLength(1);
	});

	it('Create in the mapper\'s "map each column" mode sends the values set in the node (expressions resolved per row)', async () => {
		const parameters = { operation: 'create', consignmentId: consignment, priceUnit: 'dollars', itemColumns: DEFINE_BELOW_COLUMNS };
		const result = await suite.runAt(1.1, parameters, [{ SKU: 'V11-COL-1', 'Price ($)': '19.99', Color: 'Red', vendor_sku: 'NOT-THIS' }]);
		expect(result.error).toBeUndefined();
		const [request] = await suite.apiRequests();
		expect(request.body).toEqual({
			items: [{ ...sentFor('IGNORED'), vendor_sku: 'V11-COL-1', price: 1999, gender: ['Women'], taxon_specific_attributes: { color: 'Red' } }],
		});
	});

	it('Update left at its defaults PATCHes the item the item_id column names; a row without item_id fails naming the column', async () => {
		const pending = await seeded('SBX-1001');
		const parameters = { operation: 'update', priceUnit: 'dollars' };
		const rows = [sheetRow('SBX-1001', { item_id: pending.item_id, designer: 'Prada' }), sheetRow('SBX-1001')];
		const result = await suite.runAt(1.1, parameters, rows, CONTINUE_ON_FAIL);

		const requests = await suite.apiRequests();
		expect(requests.map((request) => [request.method, request.path, request.body])).toEqual([
			['PATCH', `/v1/items/${pending.item_id}`, { ...sentFor('SBX-1001'), designer: 'Prada' }],
		]);
		expect(outputOf(result)[1].json.error).toMatch(/^Item index 1: Item ID \(item_id\) is required/);
	});

	it('Update of an approved item keeps its Item ID and its two fields: the mapper is for All Item Fields', async () => {
		const approved = await seeded('SBX-1004');
		const parameters = {
			operation: 'update',
			fieldsToSend: 'approved',
			itemId: String(approved.item_id),
			approvedItemFields: { quantity: approved.quantity - 1 },
		};
		const result = await suite.runAt(1.1, parameters, [sheetRow('SBX-1004', { item_id: 1, quantity: '0' })]);
		expect(result.error).toBeUndefined();
		const requests = await suite.apiRequests();
		expect(requests.map((request) => [request.method, request.path, request.body])).toEqual([
			['PATCH', `/v1/items/${approved.item_id}`, { quantity: approved.quantity - 1 }],
		]);
	});

	it('Create or Update in "map each column" mode matches on the vendor_sku set in the node', async () => {
		const pending = await seeded('SBX-1001');
		const itemColumns = { ...DEFINE_BELOW_COLUMNS, value: { ...DEFINE_BELOW_COLUMNS.value, price: '={{ $json.price }}' } };
		const parameters = { operation: 'upsert', consignmentId: consignment, priceUnit: 'dollars', itemColumns };
		const result = await suite.runAt(1.1, parameters, [
			{ SKU: 'SBX-1001', price: '1234.00', Color: 'Red' },
			{ SKU: 'V11-UPS-NEW', price: '19.99', Color: 'Red' },
		]);
		expect(result.error).toBeUndefined();
		const writes = (await suite.apiRequests()).filter((request) => request.method !== 'GET');
		expect(writes.map((request) => [request.method, request.path])).toEqual([
			['PATCH', `/v1/items/${pending.item_id}`],
			['POST', '/v1/consignments/cons_12345/items'],
		]);
		expect(outputOf(result).map((item) => item.json.operation)).toEqual(['updated', 'created']);
		expect(await seeded('SBX-1001')).toMatchObject({ price: 123400 });
		expect(await seeded('V11-UPS-NEW')).toMatchObject({ price: 1999 });
	});
});

describe('version 1: Item → Create, Field Mapping: Map Automatically', () => {
	it('creates items from sheet rows with contract-named columns: no expression, other columns ignored, prices converted', async () => {
		const result = await suite.run(createAuto, [sheetRow('MAP-1'), sheetRow('MAP-2', { address_id: '301' })]);

		expect(result.error).toBeUndefined();
		const requests = await suite.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/consignments/cons_12345/items', status: 200 });
		expect(requests[0].body).toEqual({ items: [sentFor('MAP-1'), { ...sentFor('MAP-2'), address_id: '301' }] });
		expect(outputOf(result).map((item) => [resultOf(item).status, item.json.vendor_sku, item.pairedItem])).toEqual([
			['submitted', 'MAP-1', { item: 0 }],
			['submitted', 'MAP-2', { item: 1 }],
		]);
		const { items } = await suite.sandbox.admin.state();
		expect(items.find((item) => item.vendor_sku === 'MAP-1')).toMatchObject({ consignment_id: 'cons_12345', price: 129999 });
	});

	it('takes Price Unit cents as well, and typed cells (numbers, booleans, lists, objects) as they are', async () => {
		const row = {
			...sheetRow('MAP-3'),
			with_tags: false,
			quantity: 1,
			msrp: 250000,
			price: 129900,
			gender: ['Women'],
			taxon_specific_attributes: {},
		};
		const result = await suite.run({ ...createAuto, priceUnit: 'cents' }, [row]);
		expect(result.error).toBeUndefined();
		const [request] = await suite.apiRequests();
		expect(request.body).toEqual({
			items: [{ ...sentFor('MAP-3'), with_tags: false, quantity: 1, msrp: 250000, price: 129900, gender: ['Women'], taxon_specific_attributes: {} }],
		});
	});

	it('a bad row fails naming its index, its vendor_sku and the column; a missing column is named too; the rest is sent', async () => {
		const withoutBackImage = sheetRow('BAD-2');
		delete withoutBackImage.image_back;
		const result = await suite.run(
			createAuto,
			[sheetRow('OK-0'), sheetRow('BAD-1', { image_front: 'front.jpg', price: '12.345' }), withoutBackImage],
			CONTINUE_ON_FAIL,
		);
		const output = outputOf(result);
		expect(output.map((item) => [resultOf(item).status, item.pairedItem])).toEqual([
			['submitted', { item: 0 }],
			['failed', { item: 1 }],
			['failed', { item: 2 }],
		]);
		expect(output[1].json.error).toMatch(/^Item index 1 \(vendor_sku BAD-1\): image_front must be an absolute http\(s\) URL/);
		expect(output[1].json.error).toMatch(/price has more than 2 decimals/);
		expect(output[2].json.error).toMatch(/^Item index 2 \(vendor_sku BAD-2\): image_back is required/);
		const requests = await suite.apiRequests();
		expect(requests).toHaveLength(1);
		expect((requests[0].body as { items: IDataObject[] }).items.map((item) => item.vendor_sku)).toEqual(['OK-0']);
	});

	it("the mapper's own \"map each column\" mode sends the values set in the node (expressions resolved per row)", async () => {
		const result = await suite.run({ ...createAuto, itemColumns: DEFINE_BELOW_COLUMNS }, [{ SKU: 'COL-1', 'Price ($)': '19.99', Color: 'Red' }]);
		expect(result.error).toBeUndefined();
		const [request] = await suite.apiRequests();
		expect(request.body).toEqual({
			items: [
				{
					...sentFor('IGNORED'),
					vendor_sku: 'COL-1',
					price: 1999,
					gender: ['Women'],
					taxon_specific_attributes: { color: 'Red' },
				},
			],
		});
	});
});

describe('version 1: Item → Create, Field Mapping: Map Each Field Manually', () => {
	it('is what a node without the selector does (workflows saved before it): the item parameters, not same-named input fields', async () => {
		const row = { ...sheetRow('FROM-COLUMNS'), ...validItem('MANUAL-1') };
		const result = await suite.run({ operation: 'create', consignmentId: consignment, ...ITEM_PARAMETERS_FROM_JSON }, [row]);
		expect(result.error).toBeUndefined();
		const [request] = await suite.apiRequests();
		expect((request.body as { items: IDataObject[] }).items).toEqual([
			expect.objectContaining({ vendor_sku: 'MANUAL-1', price: 129900, gender: ['Women'] }),
		]);
	});
});

describe('version 1: Item → Update, Field Mapping: Map Automatically', () => {
	it('PATCHes the item the item_id column names with every mapped field', async () => {
		const pending = await seeded('SBX-1001');
		const parameters = { operation: 'update', fieldsToSend: 'all', fieldMapping: 'auto', priceUnit: 'dollars', itemColumns: AUTO_COLUMNS };
		const result = await suite.run(parameters, [sheetRow('SBX-1001', { item_id: pending.item_id, designer: 'Prada' })]);

		expect(result.error).toBeUndefined();
		const requests = await suite.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'PATCH', path: `/v1/items/${pending.item_id}`, status: 200 });
		expect(requests[0].body).toEqual({ ...sentFor('SBX-1001'), designer: 'Prada' });
		expect(await seeded('SBX-1001')).toMatchObject({ price: 129999, designer: 'Prada' });
	});

	it('a row without item_id fails naming the column and the row, and sends nothing', async () => {
		const parameters = { operation: 'update', fieldsToSend: 'all', fieldMapping: 'auto', itemColumns: AUTO_COLUMNS };
		const result = await suite.run(parameters, [sheetRow('SBX-1001')], CONTINUE_ON_FAIL);
		expect(outputOf(result)[0].json.error).toMatch(/^Item index 0: Item ID \(item_id\) is required/);
		expect(await suite.apiRequests()).toHaveLength(0);
	});
});

describe('version 1: Item → Update, Address and Quantity Only', () => {
	it('keeps its Item ID and its two fields whatever Field Mapping was left at: the mapper is for All Item Fields', async () => {
		const approved = await seeded('SBX-1004');
		const parameters = {
			operation: 'update',
			fieldsToSend: 'approved',
			fieldMapping: 'auto',
			itemColumns: AUTO_COLUMNS,
			itemId: String(approved.item_id),
			approvedItemFields: { quantity: approved.quantity - 1 },
		};
		const result = await suite.run(parameters, [sheetRow('SBX-1004', { item_id: 1, quantity: '0' })]);
		expect(result.error).toBeUndefined();
		const requests = await suite.apiRequests();
		expect(requests.map((request) => [request.method, request.path, request.body])).toEqual([
			['PATCH', `/v1/items/${approved.item_id}`, { quantity: approved.quantity - 1 }],
		]);
	});
});

describe('version 1: Item → Create or Update, Field Mapping: Map Automatically', () => {
	it('matches on vendor_sku: updates the item that has it, creates the one no item has', async () => {
		const pending = await seeded('SBX-1001');
		const parameters = { operation: 'upsert', consignmentId: consignment, fieldMapping: 'auto', priceUnit: 'dollars', itemColumns: AUTO_COLUMNS };
		const result = await suite.run(parameters, [sheetRow('SBX-1001'), sheetRow('UPS-NEW-1')]);

		expect(result.error).toBeUndefined();
		const writes = (await suite.apiRequests()).filter((request) => request.method !== 'GET');
		expect(writes.map((request) => [request.method, request.path])).toEqual([
			['PATCH', `/v1/items/${pending.item_id}`],
			['POST', '/v1/consignments/cons_12345/items'],
		]);
		expect(writes[0].body).toEqual(sentFor('SBX-1001'));
		expect(writes[1].body).toEqual({ items: [sentFor('UPS-NEW-1')] });
		expect(outputOf(result).map((item) => item.json.operation)).toEqual(['updated', 'created']);
	});
});
