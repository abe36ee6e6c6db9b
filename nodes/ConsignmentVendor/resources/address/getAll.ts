import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { apiPaths } from '../../../shared/apiPaths';
import { fileOutputFields } from '../../shared/listFile/fileFields';
import { listOperation } from '../../shared/listOperation';
import { listFields } from '../../shared/listFields';
import { simplifyFields } from '../../shared/simplify';

/**
 * The fields of an address record that tell addresses apart. The contract does not show the listing's shape: the
 * identifier is `address_id` in the model and `id` in some responses, so both are kept.
 */
export const SIMPLIFIED_ADDRESS_FIELDS = [
	'address_id',
	'id',
	'active',
	'name',
	'address1',
	'city',
	'state_abbr',
	'zipcode',
	'country_iso',
	'created_at',
	'updated_at',
];

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many addresses of the vendor, active and inactive',
	description: "List every address of the vendor account, active and inactive; needs no input",
};

export const fields: INodeProperties[] = [
	...listFields({ resource: 'address', operation: 'getAll' }),
	...simplifyFields({ resource: 'address', operation: 'getAll' }),
	...fileOutputFields({ resource: 'address', operation: 'getAll' }),
];

/** The address shape is not in the contract: its ID is `id` or `address_id`. */
export const execute = listOperation({
	url: apiPaths.addresses,
	collectionKey: 'addresses',
	idKeys: ['address_id', 'id'],
	simplifiedFields: SIMPLIFIED_ADDRESS_FIELDS,
});
