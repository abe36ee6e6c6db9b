import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { summaryWhenEmpty, unwrapRecord } from '../../shared/output';
import { readIdParameter, recordRouting } from '../../shared/requestPaths';
import { activeAddressLocator } from '../../shared/resourceLocators';
import { addressBodyFields, sentAddress, validateAddressBody } from './helpers/addressFields';

export const addressUpdateOperation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update an active address by address ID, replacing every field',
	description: 'Replace every field of the active address with the given ID',
	routing: recordRouting(
		{ parameter: 'addressId', label: 'Address', kind: 'address', url: (id) => `/v1/vendor/addresses/${id}` },
		{
			request: { method: 'PATCH' },
			send: { preSend: [validateAddressBody] },
			// The address record, whether the service wraps it ({address: {...}}) or not; the response is not in the contract.
			// An empty answer outputs the address ID and what was sent.
			output: {
				postReceive: [
					summaryWhenEmpty(function () {
						return { success: true, address_id: String(readIdParameter(this, 'addressId')).trim(), ...sentAddress(this) };
					}),
					unwrapRecord('address'),
				],
			},
		},
	),
};

export const addressUpdateFields: INodeProperties[] = [
	activeAddressLocator({
		show: { resource: ['address'], operation: ['update'] },
		description: 'The active address to change. Only active addresses can be updated.',
		hint: 'The change applies to future shipments; labels already created keep the old address. To move an item to another address, use Item → Update.',
	}),
	...addressBodyFields('update'),
];
