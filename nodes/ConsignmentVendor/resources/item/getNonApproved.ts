/**
 * Item → Get Many Non-Approved: GET /v1/items/non_approved, a custom operation over the shared cursor
 * paginator (records under `products`; each has `item_status`, `quantity` and `price` as an object).
 */
import type { INodeProperties } from 'n8n-workflow';

import { itemListFields, itemListOperation } from './helpers/listFilters';
import { itemPaths } from './helpers/itemPaths';

export const getNonApproved = itemListOperation(itemPaths.nonApproved, 'status', 'status');

export const getNonApprovedFields: INodeProperties[] = itemListFields('getNonApproved', {
	displayName: 'Status',
	name: 'status',
	description: 'Only items in this validation status (status)',
	noFilter: { name: 'Any Non-Approved Status', description: 'No filter sent' },
});
