import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { listOperation } from '../../shared/listOperation';
import { listFields } from '../../shared/pagination';
import { SIMPLIFIED_ADDRESS_FIELDS, simplifyFields } from '../../shared/simplify';

export const addressGetAllOperation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many addresses of the vendor, active and inactive',
	description: "List every address of the vendor account, active and inactive; needs no input",
};

/** A custom operation (see shared/listOperation.ts). The address shape is not in the contract: id or address_id. */
export const addressGetAll = listOperation({
	url: '/v1/vendor/addresses',
	collectionKey: 'addresses',
	idKeys: ['address_id', 'id'],
	simplifiedFields: SIMPLIFIED_ADDRESS_FIELDS,
});

export const addressGetAllFields: INodeProperties[] = [
	...listFields({ resource: 'address', operation: 'getAll' }),
	...simplifyFields({ resource: 'address', operation: 'getAll' }),
];
