/**
 * Item → Get Many: GET /v1/items, declarative, paged by the shared cursor paginator (records under `products`).
 * Without a Validation Status the service returns only non-approved items (contract, Items rule 1); that
 * default is the first option, so what the node returns matches what the service documents.
 */
import type { INodeProperties, INodePropertyRouting } from 'n8n-workflow';

import { itemListFields, itemListRouting } from './helpers/listFilters';

export const getAllRouting: INodePropertyRouting = itemListRouting('/v1/items');

export const getAllFields: INodeProperties[] = itemListFields('getAll', {
	displayName: 'Validation Status',
	name: 'validationStatus',
	description: 'Which items to list (validation_status)',
	property: 'validation_status',
	noFilter: {
		name: 'Non-Approved Only (Service Default)',
		description: 'No filter sent: the service returns reconciliation, pending, rejected and deleted items',
	},
});
