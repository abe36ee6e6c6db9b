import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { listFields, listOperationRouting } from '../../shared/pagination';

export const consignmentGetAllOperation: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many consignments',
	description: "List the vendor's consignments (empty unless the credential belongs to a vendor user)",
	routing: listOperationRouting({ url: '/v1/consignments', collectionKey: 'consignments' }),
};

export const consignmentGetAllFields: INodeProperties[] = listFields({ resource: 'consignment', operation: 'getAll' });
