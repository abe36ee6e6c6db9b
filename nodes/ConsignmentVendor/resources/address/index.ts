/**
 * The `address` resource: its operation selector and fields, for the node file to spread into `properties`.
 * Exported API: `addressOperationSelector`, `addressFields`, `addressCustomOperations` (Get Many).
 */
import type { INodeProperties } from 'n8n-workflow';

import { addressCreateFields, addressCreateOperation } from './create';
import { addressDeleteFields, addressDeleteOperation } from './delete';
import { addressGetAll, addressGetAllFields, addressGetAllOperation } from './getAll';
import { addressUpdateFields, addressUpdateOperation } from './update';

export const addressOperationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['address'] } },
	options: [addressCreateOperation, addressDeleteOperation, addressGetAllOperation, addressUpdateOperation],
	default: 'getAll',
};

export const addressFields: INodeProperties[] = [
	...addressCreateFields,
	...addressUpdateFields,
	...addressDeleteFields,
	...addressGetAllFields,
];

/** For the node's `customOperations.address`: Get Many (listings of any size: shared/listOperation.ts). */
export const addressCustomOperations = { getAll: addressGetAll };
