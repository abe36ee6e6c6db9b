import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { apiPaths } from '../../../shared/apiPaths';
import { fileOutputFields } from '../../shared/listFile/fileFields';
import { listOperation } from '../../shared/listOperation';
import { listFields } from '../../shared/listFields';
import { simplifyFields } from '../../shared/simplify';

/** The consignment fields the contract documents (anything else a service adds is left out). */
export const SIMPLIFIED_CONSIGNMENT_FIELDS = ['id', 'status', 'consignment_items_count', 'created_at', 'updated_at'];

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many consignments of the vendor with their status and number of items',
	description:
		"List the vendor's consignments with their status and number of items (empty unless the credential belongs to a vendor user)",
};

export const fields: INodeProperties[] = [
	...listFields({ resource: 'consignment', operation: 'getAll' }),
	...simplifyFields({ resource: 'consignment', operation: 'getAll' }),
	...fileOutputFields({ resource: 'consignment', operation: 'getAll' }),
];

export const execute = listOperation({
	url: apiPaths.consignments,
	collectionKey: 'consignments',
	idKeys: ['id'],
	simplifiedFields: SIMPLIFIED_CONSIGNMENT_FIELDS,
});
