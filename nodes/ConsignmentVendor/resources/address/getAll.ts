import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { listOperation } from '../../shared/listOperation';
import { listFields } from '../../shared/pagination';

export const addressGetAllOperation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many addresses',
	description: "List the vendor's addresses, active and inactive",
};

/** A custom operation (see shared/listOperation.ts). The address shape is not in the contract: id or address_id. */
export const addressGetAll = listOperation({ url: '/v1/vendor/addresses', collectionKey: 'addresses', idKeys: ['address_id', 'id'] });

export const addressGetAllFields: INodeProperties[] = listFields({ resource: 'address', operation: 'getAll' });
