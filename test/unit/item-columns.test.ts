// The item columns of n8n's column mapper (Map Automatically): the contract's creation inputs with their types and
// required marks, the column each operation matches on, and the selector's default that keeps old workflows manual.
import type { ILoadOptionsFunctions, INodeProperties } from 'n8n-workflow';

import { ConsignmentVendor } from '../../nodes/ConsignmentVendor/ConsignmentVendor.node';
import { columnsFor } from '../../nodes/ConsignmentVendor/resources/item/helpers/itemColumns';

const node = new ConsignmentVendor();

/** The contract's "Item creation input", image as two columns: [id, type, required]. */
const CONTRACT_COLUMNS = [
	['vendor_sku', 'string', true],
	['upc', 'string', false],
	['taxon_permalink', 'string', true],
	['condition', 'string', true],
	['with_tags', 'boolean', true],
	['designer', 'string', true],
	['image_front', 'string', true],
	['image_back', 'string', true],
	['quantity', 'number', true],
	['msrp', 'number', true],
	['price', 'number', true],
	['gender', 'array', true],
	['taxon_specific_attributes', 'object', true],
	['address_id', 'string', false],
	['designer_specific_attributes', 'object', false],
];

function propertiesOf(operation: string, name: string): INodeProperties[] {
	return node.description.properties.filter(
		(property) => property.name === name && property.displayOptions?.show?.operation?.includes(operation),
	);
}

async function mappingColumnsFor(operation: string) {
	const context = { getNodeParameter: (name: string) => (name === 'operation' ? operation : undefined) };
	return await node.methods.resourceMapping.getMappingColumns.call(context as unknown as ILoadOptionsFunctions);
}

describe('item columns of the column mapper', () => {
	it('Create: every creation input of the contract, typed and marked required as the contract says, matching on nothing', async () => {
		const { fields } = await mappingColumnsFor('create');
		expect(fields.map((field) => [field.id, field.type, field.required])).toEqual(CONTRACT_COLUMNS);
		expect(fields.filter((field) => field.canBeUsedToMatch || field.defaultMatch)).toEqual([]);
		expect(fields.every((field) => field.display)).toBe(true);
	});

	it('Update: item_id first, required, and the only column it matches on; the creation inputs again', async () => {
		const { fields } = await mappingColumnsFor('update');
		expect(fields.map((field) => [field.id, field.type, field.required])).toEqual([['item_id', 'number', true], ...CONTRACT_COLUMNS]);
		expect(fields.filter((field) => field.canBeUsedToMatch).map((field) => [field.id, field.defaultMatch])).toEqual([['item_id', true]]);
	});

	it('Create or Update: matches on vendor_sku only', () => {
		const fields = columnsFor('upsert');
		expect(fields.map((field) => field.id)).toEqual(CONTRACT_COLUMNS.map(([id]) => id));
		expect(fields.filter((field) => field.canBeUsedToMatch).map((field) => [field.id, field.defaultMatch])).toEqual([['vendor_sku', true]]);
	});
});

describe.each([
	['create', 'add'],
	['update', 'update'],
	['upsert', 'upsert'],
])('item %s description', (operation, mapperMode) => {
	it('Field Mapping defaults to Map Each Field Manually, so a workflow saved without it keeps its fields', () => {
		const [selector] = propertiesOf(operation, 'fieldMapping');
		expect(selector.default).toBe('manual');
		expect(selector.options?.map((option) => ('value' in option ? [option.name, option.value] : []))).toEqual([
			['Map Each Field Manually', 'manual'],
			['Map Automatically', 'auto'],
		]);
	});

	it(`Map Automatically shows n8n's column mapper in mode "${mapperMode}", reading the input by default`, () => {
		const [mapper] = propertiesOf(operation, 'itemColumns');
		expect(mapper.type).toBe('resourceMapper');
		expect(mapper.displayOptions?.show?.fieldMapping).toEqual(['auto']);
		expect(mapper.default).toEqual({ mappingMode: 'autoMapInputData', value: null });
		expect(mapper.typeOptions?.resourceMapper).toMatchObject({ resourceMapperMethod: 'getMappingColumns', mode: mapperMode, supportAutoMap: true });
	});

	it('the manual fields show only in manual mode; Price Unit in both', () => {
		const manualFields = ['vendorSku', 'price', 'gender', 'taxonSpecificAttributes', 'additionalFields'].flatMap((name) =>
			propertiesOf(operation, name),
		);
		expect(manualFields).toHaveLength(6); // price twice: one per Price Unit
		for (const property of manualFields) expect(property.displayOptions?.show?.fieldMapping).toEqual(['manual']);
		expect(propertiesOf(operation, 'priceUnit')[0].displayOptions?.show?.fieldMapping).toBeUndefined();
	});
});
