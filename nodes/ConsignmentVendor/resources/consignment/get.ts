import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { withActionableErrors } from '../../shared/errors';
import { unwrapRecord } from '../../shared/output';
import { readIdParameter, urlWithIdParameter } from '../../shared/requestPaths';
import { consignmentLocator } from '../../shared/resourceLocators';

export const consignmentGetOperation: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a consignment',
	description: 'Get one consignment: status, dates and number of items',
	routing: withActionableErrors(
		{
			request: { method: 'GET' },
			send: {
				preSend: [
					urlWithIdParameter({ parameter: 'consignmentId', label: 'Consignment', url: (id) => `/v1/consignments/${id}` }),
				],
			},
			// The service wraps the record: {consignment: {...}}.
			output: { postReceive: [unwrapRecord('consignment')] },
		},
		{ subject() { return { kind: 'consignment', id: String(readIdParameter(this, 'consignmentId')) }; } },
	),
};

export const consignmentGetFields: INodeProperties[] = [
	consignmentLocator({ show: { resource: ['consignment'], operation: ['get'] } }),
];
