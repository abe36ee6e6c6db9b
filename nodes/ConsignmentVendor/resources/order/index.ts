import type { INodeProperties } from 'n8n-workflow';

import * as cancel from './cancel';

export const operations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['order'] } },
	options: [cancel.option],
	default: 'cancel',
};

export const fields: INodeProperties[] = [...cancel.fields];

export const customOperations = { cancel: cancel.execute };
