import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { summaryWhenEmpty, unwrapRecord } from '../../shared/output';
import { readIdParameter, recordRouting } from '../../shared/requestPaths';
import { activeAddressLocator } from '../../shared/resourceLocators';

export const addressDeleteOperation: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete an address by address ID, marking it inactive',
	description: 'Mark the address with the given ID inactive: it can no longer be linked to items, its history is kept',
	routing: recordRouting(
		{ parameter: 'addressId', label: 'Address', kind: 'address', url: (id) => `/v1/vendor/addresses/${id}` },
		{
			request: { method: 'DELETE' },
			output: {
				postReceive: [
					summaryWhenEmpty(function () {
						return { success: true, address_id: String(readIdParameter(this, 'addressId')).trim() };
					}),
					unwrapRecord('address'),
				],
			},
		},
	),
};

export const addressDeleteFields: INodeProperties[] = [
	activeAddressLocator({
		show: { resource: ['address'], operation: ['delete'] },
		description: 'The address to delete. Deleting marks it inactive: it cannot be linked to items or updated afterwards.',
	}),
];
