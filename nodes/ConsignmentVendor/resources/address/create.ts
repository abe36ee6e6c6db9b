import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { withActionableErrors } from '../../shared/oneRequestRouting';
import { summaryWhenEmpty, unwrapRecord } from '../../shared/output';
import { addressBodyFields, sentAddress, validateAddressBody } from './helpers/addressFields';

/** Names what to check when the outcome of the POST is unknown (errors.ts). */
const ABOUT_AN_ADDRESS = { subject: () => ({ kind: 'address' as const }) };

export const addressCreateOperation: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a US address from name, street, city, state, ZIP code and phone',
	description:
		'Add a US shipping address to the vendor account from a name, street, city, state, ZIP code, country and phone number',
	routing: withActionableErrors({
		request: { method: 'POST', url: '/v1/vendor/addresses' },
		send: { preSend: [validateAddressBody] },
		// The address record, whether the service wraps it ({address: {...}}) or not; the response is not in the contract.
		// An empty answer outputs what was sent (its address_id arrives later, with the address_creation webhook).
		output: {
			postReceive: [
				summaryWhenEmpty(function () {
					return { success: true, ...sentAddress(this) };
				}),
				unwrapRecord('address'),
			],
		},
	}, ABOUT_AN_ADDRESS),
};

export const addressCreateFields: INodeProperties[] = addressBodyFields('create');
