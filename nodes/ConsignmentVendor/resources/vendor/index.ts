/**
 * The `vendor` resource: its operation selector and fields, for the node file to spread into `properties`.
 * Exported API: `vendorOperationSelector`, `vendorFields`.
 */
import type { INodeProperties } from 'n8n-workflow';

import { vendorGetFields, vendorGetOperation } from './get';
import { vendorUpdateFields, vendorUpdateOperation } from './update';

export const vendorOperationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['vendor'] } },
	options: [vendorGetOperation, vendorUpdateOperation],
	default: 'get',
};

export const vendorFields: INodeProperties[] = [...vendorGetFields, ...vendorUpdateFields];
