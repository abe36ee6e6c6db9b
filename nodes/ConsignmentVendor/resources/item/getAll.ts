/**
 * Item → Get Many: GET /v1/items, a custom operation over the shared cursor paginator (records under `products`).
 * Without a Validation Status the service returns only non-approved items (contract, Items rule 1); that
 * default is the first option, so what the node returns matches what the service documents.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { itemListFields, itemListOperation } from './helpers/listFilters';
import { apiPaths } from '../../../shared/apiPaths';

export const execute = itemListOperation(apiPaths.items, 'validationStatus', 'validation_status');

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many items by validation status or vendor SKU',
	description:
		'List items, optionally by validation status or vendor SKU (without a status the service returns only non-approved items)',
};

const displayOptions = { show: { resource: ['item'], operation: ['getAll'] } };

export const fields: INodeProperties[] = updateDisplayOptions(
	displayOptions,
	itemListFields({
	displayName: 'Validation Status',
	name: 'validationStatus',
	description: 'Which items to list (validation_status)',
	noFilter: {
		name: 'Non-Approved Only (Service Default)',
		description: 'No filter sent: the service returns reconciliation, pending, rejected and deleted items',
	},
}),
);
