import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPaths } from '../../../shared/apiPaths';
import { answerJson, isEmptyAnswer, perItem, recordPath, requestForItem, unwrapped } from '../../shared/itemRunner';
import { activeAddressLocator } from '../../shared/resourceLocators';
import { addressBodyFields, readAddress } from './helpers/addressFields';

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update an active address by address ID, replacing every field',
	description: 'Replace every field of the active address with the given ID',
};

const displayOptions = { show: { resource: ['address'], operation: ['update'] } };

export const fields: INodeProperties[] = updateDisplayOptions(displayOptions, [
	activeAddressLocator({
		description: 'The active address to change. Only active addresses can be updated.',
		hint: 'The change applies to future shipments; labels already created keep the old address. To move an item to another address, use Item → Update.',
	}),
	...addressBodyFields(),
]);

export const execute = perItem({
	writes: true,
	read: (context, itemIndex) => ({
		...recordPath(context, itemIndex, { parameter: 'addressId', label: 'Address', path: apiPaths.address }),
		address: readAddress(context, itemIndex),
	}),
	async send(context, { id, path, address }, itemIndex, stop) {
		const answer = await requestForItem(context, itemIndex, stop, { method: 'PATCH', url: path, body: address }, { kind: 'address', id: String(id) });
		// The response is not in the contract: the address record, wrapped ({address: {...}}) or not. An empty
		// answer outputs the address ID and what was sent.
		return isEmptyAnswer(answer) ? { success: true, address_id: String(id).trim(), ...address } : answerJson(unwrapped(answer, 'address'));
	},
});
