import type { INodeProperties } from 'n8n-workflow';

import * as get from './get';
import * as update from './update';

export const operations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['vendor'] } },
	options: [get.option, update.option],
	default: 'get',
};

export const fields: INodeProperties[] = [...get.fields, ...update.fields];

export const customOperations = { get: get.execute, update: update.execute };
