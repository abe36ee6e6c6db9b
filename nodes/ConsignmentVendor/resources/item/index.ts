/**
 * The `item` resource: its operation selector, every field of its operations, and the custom operations
 * the node registers as `customOperations: { item: itemCustomOperations }`.
 * Every item operation is a custom operation: batched creation, upsert, listings of any size, and Update, which
 * sends thousands of PATCHes faster than RoutingNode can build them (update.ts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { create, createFields } from './create';
import { getAll, getAllFields } from './getAll';
import { getNonApproved, getNonApprovedFields } from './getNonApproved';
import { update, updateFields } from './update';
import { getMappingColumns } from './helpers/itemColumns';
import { previewOnlyProperty } from './helpers/itemPreview';
import { upsert, upsertFields } from './upsert';

export const itemOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['item'] } },
	default: 'create',
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create items in a consignment by consignment ID, up to 500 per request',
			description:
				'Submit new items (vendor SKU, category, condition, designer, images, quantity, prices) to the consignment with the given ID, up to 500 per request',
		},
		{
			name: 'Create or Update',
			value: 'upsert',
			action: 'Create or update an item in a consignment by vendor SKU',
			description: 'Create a new item in a consignment, matched by its vendor SKU, or update the current one if it already exists (upsert)',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many items by validation status or vendor SKU',
			description:
				'List items, optionally by validation status or vendor SKU (without a status the service returns only non-approved items)',
		},
		{
			name: 'Get Many Non-Approved',
			value: 'getNonApproved',
			action: 'Get many non approved items with their status and quantity',
			description: 'List the items not yet approved with their status and quantity, optionally by status or vendor SKU',
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update an item by item ID',
			description:
				'Change the fields of the item with the given item ID (an approved item takes only a new address or a lower quantity)',
		},
	],
};

export const itemFields: INodeProperties[] = [
	...createFields,
	...updateFields,
	...upsertFields,
	previewOnlyProperty,
	...getAllFields,
	...getNonApprovedFields,
];

/** For the node's `methods.resourceMapping`: the columns of the item fields' column mapper (Map Automatically). */
export const itemResourceMapping = { getMappingColumns };

/**
 * For the node's `customOperations.item`: the operations routing cannot express (batched creation, upsert, and
 * listings of any size: shared/listOperation.ts) or not at the pace thousands of items need (update.ts).
 */
export const itemCustomOperations = { create, update, upsert, getAll, getNonApproved };
