import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { withActionableErrors } from '../../shared/errors';
import { unwrapRecord } from '../../shared/output';
import { addressBodyFields, validateAddressBody } from './addressFields';

export const addressCreateOperation: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create an address',
	description: 'Add a shipping address to the vendor account',
	routing: withActionableErrors({
		request: { method: 'POST', url: '/v1/vendor/addresses' },
		send: { preSend: [validateAddressBody] },
		// The address record, whether the service wraps it ({address: {...}}) or not; the response is not in the contract.
		output: { postReceive: [unwrapRecord('address')] },
	}),
};

export const addressCreateFields: INodeProperties[] = addressBodyFields('create');
