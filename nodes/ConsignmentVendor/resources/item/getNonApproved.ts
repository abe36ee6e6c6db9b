/**
 * Item → Get Many Non-Approved: GET /v1/items/non_approved, declarative, paged by the shared cursor
 * paginator (records under `products`; each has `item_status`, `quantity` and `price` as an object).
 */
import type { INodeProperties, INodePropertyRouting } from 'n8n-workflow';

import { itemListFields, itemListRouting } from './helpers/listFilters';

export const getNonApprovedRouting: INodePropertyRouting = itemListRouting('/v1/items/non_approved');

export const getNonApprovedFields: INodeProperties[] = itemListFields('getNonApproved', {
	displayName: 'Status',
	name: 'status',
	description: 'Only items in this validation status (status)',
	property: 'status',
	noFilter: { name: 'Any Non-Approved Status', description: 'No filter sent' },
});
