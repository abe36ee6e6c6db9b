import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { listFields, listOperationRouting } from '../../shared/pagination';

export const addressGetAllOperation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many addresses',
	description: "List the vendor's addresses, active and inactive",
	routing: listOperationRouting({ url: '/v1/vendor/addresses', collectionKey: 'addresses' }),
};

export const addressGetAllFields: INodeProperties[] = listFields({ resource: 'address', operation: 'getAll' });
