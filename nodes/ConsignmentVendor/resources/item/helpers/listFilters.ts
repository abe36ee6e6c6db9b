/**
 * What the two item listings (Get Many, Get Many Non-Approved) share: a custom operation over the shared cursor
 * paginator with empty filters left out, a status filter of the contract's statuses, Filters → Vendor SKU and
 * the paging fields. Only the endpoint and the status filter's name and wording differ.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { fileOutputFields } from '../../../shared/listFile/fileFields';
import { listOperation, queryFromParameters } from '../../../shared/listOperation';
import { listFields } from '../../../shared/listFields';
import { simplifyFields } from '../../../shared/simplify';

/** The fields of an item record that say which item it is and its state (both item listings; each has a subset). */
export const SIMPLIFIED_ITEM_FIELDS = [
	// the approved listing's records are variants: `id` tells two variants of one item apart
	'id',
	'item_id',
	'vendor_sku',
	'item_status',
	'designer',
	'taxon',
	'condition',
	'quantity',
	'price',
	'consignment_id',
	'address_id',
	'created_at',
	'updated_at',
];

/** The contract's five validation statuses. */
const VALIDATION_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Approved', value: 'approved' },
	{ name: 'Deleted', value: 'deleted' },
	{ name: 'Pending', value: 'pending' },
	{ name: 'Reconciliation', value: 'reconciliation' },
	{ name: 'Rejected', value: 'rejected' },
];

/**
 * The custom operation of an item listing at `url` (records under `products`: variants, identified by their `id`,
 * or by `item_id` where a listing shows no `id`, as the non-approved one does). The
 * status filter's option '' means "send no filter, the service's default applies": empty values are not sent.
 * `priceObjects`: the listing's prices are `{currency_code, price}` objects (the non-approved one, contract).
 */
export function itemListOperation(url: string, statusParameter: string, statusQuery: string, priceObjects = false) {
	return listOperation({
		url,
		collectionKey: 'products',
		idKeys: ['id', 'item_id'],
		simplifiedFields: SIMPLIFIED_ITEM_FIELDS,
		priceFields: ['price', 'msrp'],
		priceObjects,
		query: queryFromParameters([
			[statusParameter, statusQuery],
			['filters.vendorSku', 'vendor_sku'],
		]),
	});
}

/** Filters → Vendor SKU, sent as `vendor_sku` (the service matches it exactly, ignoring case). */
function vendorSkuFilter(operation: string): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: ['item'], operation: [operation] } },
		options: [
			{
				displayName: 'Vendor SKU',
				name: 'vendorSku',
				type: 'string',
				default: '',
				placeholder: 'e.g. BAG-0001',
				description: 'Only the item with this vendor_sku (exact match, case-insensitive). No match gives no items.',
			},
		],
	};
}

/**
 * Every field of an item listing: a status filter (its first option, `noFilter`, sends none), Filters → Vendor SKU,
 * Return All / Limit / Page Size, and Simplify.
 */
export function itemListFields(
	operation: string,
	statusFilter: Pick<INodeProperties, 'displayName' | 'name' | 'description'> & {
		noFilter: { name: string; description: string };
	},
): INodeProperties[] {
	return [
		{
			displayName: statusFilter.displayName,
			name: statusFilter.name,
			type: 'options',
			default: '',
			description: statusFilter.description,
			displayOptions: { show: { resource: ['item'], operation: [operation] } },
			options: [
				{ name: statusFilter.noFilter.name, value: '', description: statusFilter.noFilter.description },
				...VALIDATION_STATUS_OPTIONS,
			],
		},
		vendorSkuFilter(operation),
		...listFields({ resource: 'item', operation }),
		...simplifyFields({ resource: 'item', operation }),
		...fileOutputFields({ resource: 'item', operation }, true),
	];
}
