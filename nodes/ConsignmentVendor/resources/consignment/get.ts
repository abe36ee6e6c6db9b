import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { unwrapRecord } from '../../shared/output';
import { recordRouting } from '../../shared/requestPaths';
import { consignmentLocator } from '../../shared/resourceLocators';

export const consignmentGetOperation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a consignment by ID with its status and number of items',
	description: 'Get the status, dates and number of items of the consignment with the given ID',
	routing: recordRouting(
		{ parameter: 'consignmentId', label: 'Consignment', kind: 'consignment', url: (id) => `/v1/consignments/${id}` },
		{
			request: { method: 'GET' },
			// The service wraps the record: {consignment: {...}}.
			output: { postReceive: [unwrapRecord('consignment')] },
		},
	),
};

export const consignmentGetFields: INodeProperties[] = [
	consignmentLocator({ show: { resource: ['consignment'], operation: ['get'] } }),
];
