/**
 * The `order` resource: its operation selector and fields, for the node file to spread into `properties`.
 * Exported API: `orderOperationSelector`, `orderFields`.
 */
import type { INodeProperties } from 'n8n-workflow';

import { orderCancelFields, orderCancelOperation } from './cancel';

export const orderOperationSelector: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['order'] } },
	options: [orderCancelOperation],
	default: 'cancel',
};

export const orderFields: INodeProperties[] = [...orderCancelFields];
