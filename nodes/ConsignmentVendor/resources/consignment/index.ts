import type { INodeProperties } from 'n8n-workflow';

import * as get from './get';
import * as getAll from './getAll';

export const operations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['consignment'] } },
	options: [get.option, getAll.option],
	default: 'getAll',
};

export const fields: INodeProperties[] = [...get.fields, ...getAll.fields];

export const customOperations = { get: get.execute, getAll: getAll.execute };
