/**
 * Pieces shared by the two item listings (Get Many, Get Many Non-Approved).
 */
import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The contract's five validation statuses. */
export const VALIDATION_STATUS_OPTIONS: INodePropertyOptions[] = [
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
export async function dropEmptyQueryValues(
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

/** Filters → Vendor SKU, sent as `vendor_sku` (the service matches it exactly, ignoring case). */
export function vendorSkuFilter(operation: string): INodeProperties {
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
