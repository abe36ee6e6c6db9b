import type { INodeProperties } from 'n8n-workflow';

import type { PriceUnit } from '../../../../shared/money';

/**
 * From 1.2 new nodes read prices in dollars: a sheet or a shop holds prices as people write them (2100.00, 650), and
 * in Cents those go out a hundred times too small without any error (a whole-dollar 650 becomes $6.50).
 */
export const PRICES_IN_DOLLARS_FROM = 1.2;

type Show = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

function shown(operations: string[], extra: Show = {}): INodeProperties['displayOptions'] {
	return { show: { resource: ['item'], operation: operations, ...extra } };
}

/** The item's address ID, sent as a string. Plain text: it sits in a collection, where n8n 1.x has no locators. */
function addressField(): INodeProperties {
	return {
		displayName: 'Address ID',
		name: 'addressId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 301',
		description:
			'ID of an active address to link to the item (sent as address_id, a string). Address → Get Many lists them.',
	};
}

/** Price Unit applies in every mapping (`extra`); the amounts are fields of the manual mapping (`manual`). */
function priceFields(operations: string[], extra: Show, manual: Show): INodeProperties[] {
	const amount = (
		name: 'price' | 'msrp',
		label: string,
		what: string,
		unit: 'cents' | 'dollars',
	): INodeProperties => ({
		// Same parameter under two labels: the label says which unit the number is read in.
		displayName: unit === 'cents' ? `${label} (Cents)` : `${label} (Dollars)`,
		name,
		type: 'string',
		default: '',
		required: true,
		placeholder: unit === 'cents' ? 'e.g. 129900' : 'e.g. 1299.00',
		description: `${what}. Sent as ${name} in whole cents.`,
		hint:
			unit === 'cents'
				? 'In cents: 129900 means $1,299.00. Switch Price Unit to Dollars to type 1299.00.'
				: 'In dollars, at most 2 decimals, no thousands separators: 1299.99 is sent as 129999 cents (converted exactly).',
		displayOptions: shown(operations, { ...manual, priceUnit: [unit] }),
	});
	const priceUnit = (defaultUnit: PriceUnit, versions: NonNullable<Show['@version']>): INodeProperties => ({
		displayName: 'Price Unit',
		name: 'priceUnit',
		type: 'options',
		default: defaultUnit,
		description: 'How MSRP and Price are entered (also the msrp and price columns of the column mapper). The API always receives whole cents.',
		hint: 'Dollars: 2100.00 or 2100 is $2,100.00. Cents: 2100 is $21.00, and a value with a decimal point is refused',
		options: [
			{ name: 'Cents', value: 'cents', description: 'As the API takes it: 1999 means $19.99' },
			{ name: 'Dollars', value: 'dollars', description: '19.99 means $19.99; converted to 1999 cents exactly' },
		],
		displayOptions: shown(operations, { ...extra, '@version': versions }),
	});
	return [
		// Nodes saved before 1.2 keep Cents (n8n does not store a parameter left at its default).
		priceUnit('cents', [{ _cnd: { lt: PRICES_IN_DOLLARS_FROM } }]),
		priceUnit('dollars', [{ _cnd: { gte: PRICES_IN_DOLLARS_FROM } }]),
		amount('msrp', 'MSRP', "Manufacturer's suggested retail price", 'cents'),
		amount('msrp', 'MSRP', "Manufacturer's suggested retail price", 'dollars'),
		amount('price', 'Price', 'Selling price', 'cents'),
		amount('price', 'Price', 'Selling price', 'dollars'),
	];
}

/** Version 1's "Map Each Field Manually" (itemMapping.ts). `extra` narrows the display (Update: all fields). */
export function itemInputFields(operations: string[], extra: Show = {}): INodeProperties[] {
	const manual = { ...extra, fieldMapping: ['manual'], '@version': [1] };
	const on = shown(operations, manual);
	return [
		{
			displayName: 'Vendor SKU',
			name: 'vendorSku',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. BAG-0001',
			description: "Your own unique SKU for the item (vendor_sku). Not the platform's SKU.",
			displayOptions: on,
		},
		{
			displayName: 'Taxon Permalink',
			name: 'taxonPermalink',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. women/handbags/clutches',
			description: 'Category path (taxon_permalink): segments joined by "/", as the service lists them',
			displayOptions: on,
		},
		{
			displayName: 'UPC',
			name: 'upc',
			type: 'string',
			default: '',
			placeholder: 'e.g. 012345678905',
			description: 'Universal Product Code (upc)',
			hint: 'Required when the Taxon Permalink starts with watches/',
			displayOptions: on,
		},
		{
			displayName: 'Designer',
			name: 'designer',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. Chanel',
			description: 'Designer/brand name exactly as the service knows it',
			displayOptions: on,
		},
		{
			displayName: 'Condition',
			name: 'condition',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. Excellent',
			description: 'Condition value exactly as the service knows it',
			displayOptions: on,
		},
		{
			displayName: 'With Tags',
			name: 'withTags',
			type: 'boolean',
			default: false,
			description: 'Whether the item still has its original tags (with_tags)',
			displayOptions: on,
		},
		{
			displayName: 'Front Image URL',
			name: 'imageFront',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://example.com/images/bag-front.jpg',
			description: 'Absolute http(s) URL of the front photo (image.front)',
			displayOptions: on,
		},
		{
			displayName: 'Back Image URL',
			name: 'imageBack',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://example.com/images/bag-back.jpg',
			description: 'Absolute http(s) URL of the back photo (image.back)',
			displayOptions: on,
		},
		{
			displayName: 'Quantity',
			name: 'quantity',
			type: 'number',
			default: 1,
			required: true,
			typeOptions: { minValue: 0, numberPrecision: 0 },
			description: 'Number of items consigned (quantity). At least 1 when creating.',
			displayOptions: on,
		},
		...priceFields(operations, extra, manual),
		{
			displayName: 'Gender',
			name: 'gender',
			type: 'multiOptions',
			default: [],
			required: true,
			options: [
				{ name: 'Men', value: 'Men' },
				{ name: 'Women', value: 'Women' },
			],
			description: 'Target gender(s), sent as a list',
			displayOptions: on,
		},
		{
			displayName: 'Taxon-Specific Attributes',
			name: 'taxonSpecificAttributes',
			type: 'json',
			default: '{}',
			required: true,
			description:
				'JSON object of category attributes (taxon_specific_attributes), e.g. {"color": "Black", "material": ["Leather"], "condition-description": "Light wear"}. May be {}.',
			displayOptions: on,
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			displayOptions: on,
			options: [
				addressField(),
				{
					displayName: 'Designer-Specific Attributes',
					name: 'designerSpecificAttributes',
					type: 'json',
					default: '{}',
					description: 'JSON object of designer-specific options (designer_specific_attributes)',
				},
			],
		},
	];
}

/** Update's fields for an approved item: the only two the service applies. */
export function approvedItemFields(operations: string[], extra: Show): INodeProperties[] {
	return [
		{
			displayName: 'Approved Item Fields',
			name: 'approvedItemFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			description: 'An approved item accepts only these two: the service ignores every other field',
			displayOptions: shown(operations, extra),
			options: [
				addressField(),
				{
					displayName: 'Quantity',
					name: 'quantity',
					type: 'number',
					default: 0,
					typeOptions: { minValue: 0, numberPrecision: 0 },
					description: 'New quantity: only a decrease is applied to an approved item (no webhook is sent for it)',
					hint: 'Enter the new, lower quantity: 0 takes the item off sale',
				},
			],
		},
	];
}
