import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPaths } from '../../../shared/apiPaths';
import { answerJson, inputError, isEmptyAnswer, perItem, requestForItem } from '../../shared/itemRunner';

export const option: INodePropertyOptions = {
	name: 'Cancel',
	value: 'cancel',
	action: "Cancel an order by the purchased item's platform SKU (not the vendor SKU)",
	description:
		'Cancel the order of a purchased item, given its platform SKU from the item-purchased webhook (not the vendor SKU)',
};

const displayOptions = { show: { resource: ['order'], operation: ['cancel'] } };

export const fields: INodeProperties[] = updateDisplayOptions(displayOptions, [
	{
		displayName: 'Platform SKU',
		name: 'sku',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. TRR-ORD-000001',
		description: 'The platform\'s SKU of the purchased item, from the order webhook (item_purchased event, field "sku")',
		hint: 'Not your vendor_sku: use the "sku" the Consignment Vendor Trigger outputs for an item_purchased event',
	},
]);

/** The platform SKU is required and sent as a JSON string, trimmed. */
function readSku(context: IExecuteFunctions, itemIndex: number): string {
	const value = context.getNodeParameter('sku', itemIndex, '') as unknown;
	const sku = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (sku === '') {
		throw inputError(context.getNode(), itemIndex, 'sku is required (the platform SKU of the order)', 'Map the "sku" of the item_purchased webhook event.');
	}
	return sku;
}

export const execute = perItem({
	writes: true,
	read: readSku,
	async send(context, sku, itemIndex, stop) {
		const answer = await requestForItem(context, itemIndex, stop, { method: 'POST', url: apiPaths.cancellations, body: { sku } }, { kind: 'order', id: sku });
		return isEmptyAnswer(answer) ? { success: true, sku } : answerJson(answer);
	},
});
