/**
 * The `consignment` resource: its operation selector and fields, for the node file to spread into `properties`.
 * Exported API: `consignmentOperationSelector`, `consignmentFields`, `consignmentCustomOperations` (Get Many).
 */
import type { INodeProperties } from 'n8n-workflow';

import { consignmentGetFields, consignmentGetOperation } from './get';
import { consignmentGetAll, consignmentGetAllFields, consignmentGetAllOperation } from './getAll';

export const consignmentOperationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['consignment'] } },
	options: [consignmentGetOperation, consignmentGetAllOperation],
	default: 'getAll',
};

export const consignmentFields: INodeProperties[] = [...consignmentGetFields, ...consignmentGetAllFields];

/** For the node's `customOperations.consignment`: Get Many (listings of any size: shared/listOperation.ts). */
export const consignmentCustomOperations = { getAll: consignmentGetAll };
