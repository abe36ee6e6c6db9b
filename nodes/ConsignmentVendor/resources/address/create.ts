import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { withActionableErrors } from '../../shared/errors';
import { addressBodyFields, validateAddressBody } from './addressFields';

export const addressCreateOperation: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create an address',
	description: 'Add a shipping address to the vendor account',
	routing: withActionableErrors({
		request: { method: 'POST', url: '/v1/vendor/addresses' },
		send: { preSend: [validateAddressBody] },
	}),
};

export const addressCreateFields: INodeProperties[] = addressBodyFields('create');
