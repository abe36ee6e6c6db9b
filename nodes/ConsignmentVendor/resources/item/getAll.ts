/**
 * Item → Get Many: GET /v1/items, declarative, paged by the shared cursor paginator (records under `products`).
 * Without a Validation Status the service returns only non-approved items (contract, Items rule 1); that
 * default is the first option, so what the node returns matches what the service documents.
 */
import type { INodeProperties, INodePropertyRouting } from 'n8n-workflow';

import { listFields, listOperationRouting } from '../../shared/pagination';
import { dropEmptyQueryValues, VALIDATION_STATUS_OPTIONS, vendorSkuFilter } from './listFilters';

const listRouting = listOperationRouting({ url: '/v1/items', collectionKey: 'products' });

export const getAllRouting: INodePropertyRouting = {
	...listRouting,
	send: { ...listRouting.send, preSend: [dropEmptyQueryValues] },
};

export const getAllFields: INodeProperties[] = [
	{
		displayName: 'Validation Status',
		name: 'validationStatus',
		type: 'options',
		default: '',
		description: 'Which items to list (validation_status)',
		displayOptions: { show: { resource: ['item'], operation: ['getAll'] } },
		options: [
			{
				name: 'Non-Approved Only (Service Default)',
				value: '',
				description: 'No filter sent: the service returns reconciliation, pending, rejected and deleted items',
			},
			...VALIDATION_STATUS_OPTIONS,
		],
		routing: { send: { type: 'query', property: 'validation_status' } },
	},
	vendorSkuFilter('getAll'),
	...listFields({ resource: 'item', operation: 'getAll' }),
];
