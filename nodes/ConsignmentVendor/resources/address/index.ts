import type { INodeProperties } from 'n8n-workflow';

import * as create from './create';
import * as deleteAddress from './delete';
import * as getAll from './getAll';
import * as update from './update';

export const operations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['address'] } },
	options: [create.option, deleteAddress.option, getAll.option, update.option],
	default: 'getAll',
};

export const fields: INodeProperties[] = [...create.fields, ...update.fields, ...deleteAddress.fields, ...getAll.fields];

export const customOperations = { create: create.execute, update: update.execute, delete: deleteAddress.execute, getAll: getAll.execute };
