import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPaths } from '../../../shared/apiPaths';
import { answerJson, isEmptyAnswer, perItem, requestForItem, unwrapped } from '../../shared/itemRunner';
import { addressBodyFields, readAddress } from './helpers/addressFields';

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a US address from name, street, city, state, ZIP code and phone',
	description:
		'Add a US shipping address to the vendor account from a name, street, city, state, ZIP code, country and phone number',
};

const displayOptions = { show: { resource: ['address'], operation: ['create'] } };

export const fields: INodeProperties[] = updateDisplayOptions(displayOptions, addressBodyFields());

export const execute = perItem({
	writes: true,
	read: readAddress,
	async send(context, address, itemIndex, stop) {
		// The subject names what to check when the outcome of the POST is unknown (errors.ts).
		const answer = await requestForItem(context, itemIndex, stop, { method: 'POST', url: apiPaths.addresses, body: address }, { kind: 'address' });
		// The response is not in the contract: the address record, wrapped ({address: {...}}) or not. An empty answer
		// outputs what was sent (its address_id arrives later, with the address_creation webhook).
		return isEmptyAnswer(answer) ? { success: true, ...address } : answerJson(unwrapped(answer, 'address'));
	},
});
