/**
 * Item → Get Many Non-Approved: GET /v1/items/non_approved, declarative, paged by the shared cursor
 * paginator (records under `products`; each has `item_status`, `quantity` and `price` as an object).
 */
import type { INodeProperties, INodePropertyRouting } from 'n8n-workflow';

import { listFields, listOperationRouting } from '../../shared/pagination';
import { dropEmptyQueryValues, VALIDATION_STATUS_OPTIONS, vendorSkuFilter } from './listFilters';

const listRouting = listOperationRouting({ url: '/v1/items/non_approved', collectionKey: 'products' });

export const getNonApprovedRouting: INodePropertyRouting = {
	...listRouting,
	send: { ...listRouting.send, preSend: [dropEmptyQueryValues] },
};

export const getNonApprovedFields: INodeProperties[] = [
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: '',
		description: 'Only items in this validation status (status)',
		displayOptions: { show: { resource: ['item'], operation: ['getNonApproved'] } },
		options: [{ name: 'Any Non-Approved Status', value: '', description: 'No filter sent' }, ...VALIDATION_STATUS_OPTIONS],
		routing: { send: { type: 'query', property: 'status' } },
	},
	vendorSkuFilter('getNonApproved'),
	...listFields({ resource: 'item', operation: 'getNonApproved' }),
];
