import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withActionableErrors } from '../../shared/oneRequestRouting';
import { summaryWhenEmpty } from '../../shared/output';

function skuOf(context: IExecuteSingleFunctions): string {
	const value = context.getNodeParameter('sku', '') as unknown;
	return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
}

/** The platform SKU is required and sent as a JSON string, trimmed. */
async function requireSku(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const sku = skuOf(this);
	if (sku === '') {
		throw new NodeOperationError(this.getNode(), `Item index ${itemIndex}: sku is required (the platform SKU of the order)`, {
			itemIndex,
			description: 'Nothing was sent for this item. Map the "sku" of the item_purchased webhook event.',
		});
	}
	requestOptions.body = { ...((requestOptions.body ?? {}) as IDataObject), sku };
	return requestOptions;
}

export const orderCancelOperation: INodePropertyOptions = {
	name: 'Cancel',
	value: 'cancel',
	action: "Cancel an order by the purchased item's platform SKU (not the vendor SKU)",
	description:
		'Cancel the order of a purchased item, given its platform SKU from the item-purchased webhook (not the vendor SKU)',
	routing: withActionableErrors(
		{
			request: { method: 'POST', url: '/v1/cancellations' },
			send: { preSend: [requireSku] },
			output: {
				postReceive: [
					summaryWhenEmpty(function () {
						return { success: true, sku: skuOf(this) };
					}),
				],
			},
		},
		{ subject() { return { kind: 'order', id: skuOf(this) }; } },
	),
};

export const orderCancelFields: INodeProperties[] = [
	{
		displayName: 'Platform SKU',
		name: 'sku',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. TRR-ORD-000001',
		description: 'The platform\'s SKU of the purchased item, from the order webhook (item_purchased event, field "sku")',
		hint: 'Not your vendor_sku: use the "sku" the Consignment Vendor Trigger outputs for an item_purchased event',
		displayOptions: { show: { resource: ['order'], operation: ['cancel'] } },
	},
];
