/**
 * What the two item listings (Get Many, Get Many Non-Approved) share: routing through the shared cursor
 * paginator with empty filters left out, a status filter of the contract's statuses, Filters → Vendor SKU and
 * the paging fields. Only the endpoint and the status filter's name and wording differ.
 */
import type {
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
	INodePropertyOptions,
	INodePropertyRouting,
} from 'n8n-workflow';

import { listFields, listOperationRouting } from '../../../shared/pagination';

/** The contract's five validation statuses. */
const VALIDATION_STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Approved', value: 'approved' },
	{ name: 'Deleted', value: 'deleted' },
	{ name: 'Pending', value: 'pending' },
	{ name: 'Reconciliation', value: 'reconciliation' },
	{ name: 'Rejected', value: 'rejected' },
];

/**
 * A status option of '' means "send no filter, the service's default applies". Routing sends every shown
 * field, so empty values are removed here rather than sent as `status=`.
 */
async function dropEmptyQueryValues(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const qs = { ...(requestOptions.qs ?? {}) };
	for (const [key, value] of Object.entries(qs)) {
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) delete qs[key];
		else if (typeof value === 'string') qs[key] = value.trim();
	}
	requestOptions.qs = qs;
	return requestOptions;
}

/** Routing of an item listing at `url` (records under `products`). */
export function itemListRouting(url: string): INodePropertyRouting {
	const routing = listOperationRouting({ url, collectionKey: 'products' });
	return { ...routing, send: { ...routing.send, preSend: [dropEmptyQueryValues] } };
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
				routing: { send: { type: 'query', property: 'vendor_sku' } },
			},
		],
	};
}

/**
 * Every field of an item listing: a status filter (sent as the query parameter `property`; its first option,
 * `noFilter`, sends none), Filters → Vendor SKU, and Return All / Limit / Page Size.
 */
export function itemListFields(
	operation: string,
	statusFilter: Pick<INodeProperties, 'displayName' | 'name' | 'description'> & {
		property: string;
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
			routing: { send: { type: 'query', property: statusFilter.property } },
		},
		vendorSkuFilter(operation),
		...listFields({ resource: 'item', operation }),
	];
}
