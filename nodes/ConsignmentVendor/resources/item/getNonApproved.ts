/**
 * Item → Get Many Non-Approved: GET /v1/items/non_approved, a custom operation over the shared cursor
 * paginator (records under `products`; each has `item_status`, `quantity` and `price` as an object).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { itemListFields, itemListOperation } from './helpers/listFilters';
import { apiPaths } from '../../../shared/apiPaths';

export const execute = itemListOperation(apiPaths.nonApprovedItems, 'status', 'status', true);

export const option: INodePropertyOptions = {
	name: 'Get Many Non-Approved',
	value: 'getNonApproved',
	action: 'Get many non approved items with their status and quantity',
	description: 'List the items not yet approved with their status and quantity, optionally by status or vendor SKU',
};

const displayOptions = { show: { resource: ['item'], operation: ['getNonApproved'] } };

export const fields: INodeProperties[] = updateDisplayOptions(
	displayOptions,
	itemListFields({
	displayName: 'Status',
	name: 'status',
	description: 'Only items in this validation status (status)',
	noFilter: { name: 'Any Non-Approved Status', description: 'No filter sent' },
}),
);
