import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiPaths } from '../../../shared/apiPaths';
import { answerJson, isEmptyAnswer, perItem, recordPath, requestForItem, unwrapped } from '../../shared/itemRunner';
import { activeAddressLocator } from '../../shared/resourceLocators';

export const option: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete an address by address ID, marking it inactive',
	description: 'Mark the address with the given ID inactive: it can no longer be linked to items, its history is kept',
};

const displayOptions = { show: { resource: ['address'], operation: ['delete'] } };

export const fields: INodeProperties[] = updateDisplayOptions(displayOptions, [
	activeAddressLocator({
		description: 'The address to delete. Deleting marks it inactive: it cannot be linked to items or updated afterwards.',
	}),
]);

export const execute = perItem({
	writes: true,
	read: (context, itemIndex) => recordPath(context, itemIndex, { parameter: 'addressId', label: 'Address', path: apiPaths.address }),
	async send(context, { id, path }, itemIndex, stop) {
		const answer = await requestForItem(context, itemIndex, stop, { method: 'DELETE', url: path }, { kind: 'address', id: String(id) });
		return isEmptyAnswer(answer) ? { success: true, address_id: String(id).trim() } : answerJson(unwrapped(answer, 'address'));
	},
});
