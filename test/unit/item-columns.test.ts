// The item columns of n8n's column mapper: the contract's creation inputs with their types and required marks, the
// column each operation matches on; the parameters a user sees at version 1.1 (the mapper, one mapping choice) and at
// version 1 (Field Mapping, whose default keeps old workflows manual).
import { NodeHelpers, type ILoadOptionsFunctions, type INodeParameters, type INodeProperties } from 'n8n-workflow';

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

async function mappingColumnsFor(operation: string, priceUnit?: string) {
	const context = {
		getNodeParameter: (name: string) => (name === 'operation' ? operation : undefined),
		getCurrentNodeParameter: (name: string) => (name === 'priceUnit' ? priceUnit : undefined),
	};
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

	it('the amounts say the Price Unit they are read in, where the user maps them', async () => {
		const label = async (unit?: string) =>
			(await mappingColumnsFor('upsert', unit)).fields.filter((field) => field.id === 'msrp' || field.id === 'price').map((field) => field.displayName);
		expect(await label('dollars')).toEqual(['MSRP in Dollars (msrp)', 'Price in Dollars (price)']);
		expect(await label('cents')).toEqual(['MSRP in Cents (msrp)', 'Price in Cents (price)']);
		expect(await label(undefined)).toEqual(['MSRP in Price Unit (msrp)', 'Price in Price Unit (price)']);
	});

	it('Create or Update: matches on vendor_sku only', () => {
		const fields = columnsFor('upsert');
		expect(fields.map((field) => field.id)).toEqual(CONTRACT_COLUMNS.map(([id]) => id));
		expect(fields.filter((field) => field.canBeUsedToMatch).map((field) => [field.id, field.defaultMatch])).toEqual([['vendor_sku', true]]);
	});
});

/** The parameters the editor shows a node of `typeVersion` with `values` (the rest at their defaults), by name. */
function shownParameters(typeVersion: number, values: INodeParameters): string[] {
	const { description } = node;
	const version = { typeVersion };
	const resolved = NodeHelpers.getNodeParameters(description.properties, values, true, false, version, description) ?? {};
	return description.properties
		.filter((property) => NodeHelpers.displayParameter(resolved, property, version, description))
		.map((property) => property.name);
}

/** Version 1's "Map Each Field Manually": the item parameters, Price Unit among them (it shows in every mapping). */
const MANUAL_MAPPING = [
	...['vendorSku', 'taxonPermalink', 'upc', 'designer', 'condition', 'withTags', 'imageFront', 'imageBack', 'quantity'],
	...['priceUnit', 'msrp', 'price', 'gender', 'taxonSpecificAttributes', 'additionalFields'],
];
const MAPPER = ['fieldMappingNotice', 'itemColumns'];

describe.each([
	['create', 'add', ['consignmentId'], ['createNotice', 'sendAgain']],
	['update', 'update', ['fieldsToSend', 'updateNotice'], []],
	['upsert', 'upsert', ['consignmentId', 'upsertNotice', 'newItemsListedWithin', 'sendAgain', 'onlySendWhatChanged', 'missingItems'], []],
])('item %s description', (operation, mapperMode, before, after) => {
	const item = { resource: 'item', operation };
	const common = ['resource', 'operation', ...before];
	const end = [...after, 'previewOnly', 'requestOptions'];

	it('version 1.1 shows one mapping choice: the column mapper, reading the input by default (no Field Mapping, no item parameters)', () => {
		expect(shownParameters(1.1, item)).toEqual([...common, ...MAPPER, 'priceUnit', ...end]);
		const mapper = node.description.properties.find(
			(property) => property.name === 'itemColumns' && !property.displayOptions?.show?.fieldMapping && property.displayOptions?.show?.operation?.includes(operation),
		);
		expect(mapper?.default).toEqual({ mappingMode: 'autoMapInputData', value: null });
		expect(mapper?.typeOptions?.resourceMapper).toMatchObject({ resourceMapperMethod: 'getMappingColumns', mode: mapperMode, supportAutoMap: true });
	});

	it('version 1 keeps Field Mapping, Map Each Field Manually by default, so a workflow saved without it keeps its fields', () => {
		// Update's Item ID is a parameter in this mode only (and for an approved item): the mapper has an item_id column.
		const withItemId = operation === 'update' ? ['resource', 'operation', 'itemId', ...before] : common;
		expect(shownParameters(1, item)).toEqual([...withItemId, 'fieldMapping', ...MANUAL_MAPPING, ...end]);
		const [selector] = propertiesOf(operation, 'fieldMapping');
		expect(selector.options?.map((option) => ('value' in option ? [option.name, option.value] : []))).toEqual([
			['Map Each Field Manually', 'manual'],
			['Map Automatically', 'auto'],
		]);
	});

	it('Price Unit: Cents by default up to 1.1 (saved workflows keep their unit), Dollars for new nodes from 1.2', () => {
		const unitAt = (typeVersion: number) => {
			const { description } = node;
			const resolved = NodeHelpers.getNodeParameters(description.properties, item, true, false, { typeVersion }, description) ?? {};
			return resolved.priceUnit;
		};
		expect([unitAt(1), unitAt(1.1), unitAt(1.2)]).toEqual(['cents', 'cents', 'dollars']);
		expect(shownParameters(1.2, item)).toEqual([...common, ...MAPPER, 'priceUnit', ...end]);
	});

	it("version 1's Map Automatically shows the column mapper and Price Unit, not the item parameters", () => {
		expect(shownParameters(1, { ...item, fieldMapping: 'auto' })).toEqual([...common, 'fieldMapping', ...MAPPER, 'priceUnit', ...end]);
	});
});
