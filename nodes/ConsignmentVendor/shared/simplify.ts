/**
 * Simplify on the list operations: n8n's usual toggle for nodes whose records carry many fields. An AI agent that
 * uses the node as a tool pays for every field of every listed record; a person mostly wants to see which record is
 * which and its state. On for nodes added from version 1.1 on, off for workflows saved with version 1: n8n saves a
 * parameter only when it differs from its default, so changing the default in place would silently trim the output
 * of every workflow saved before Simplify existed.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** The node version from which Simplify is on by default. */
export const SIMPLIFY_ON_BY_DEFAULT_FROM = 1.1;

/** The fields of an item record that say which item it is and its state (both item listings; each has a subset). */
export const SIMPLIFIED_ITEM_FIELDS = [
	// the approved listing's records are variants: `id` tells two variants of one item apart
	'id',
	'item_id',
	'vendor_sku',
	'item_status',
	'designer',
	'taxon',
	'condition',
	'quantity',
	'price',
	'consignment_id',
	'address_id',
	'created_at',
	'updated_at',
];

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

/** The consignment fields the contract documents (anything else a service adds is left out). */
export const SIMPLIFIED_CONSIGNMENT_FIELDS = ['id', 'status', 'consignment_items_count', 'created_at', 'updated_at'];

/** The record with only `fields`, in that order; a field the record lacks is left out rather than added empty. */
export function pickFields(record: IDataObject, fields: readonly string[]): IDataObject {
	const picked: IDataObject = {};
	for (const field of fields) {
		if (Object.prototype.hasOwnProperty.call(record, field)) picked[field] = record[field];
	}
	return picked;
}

/**
 * The Simplify parameter of one list operation, twice: off by default on version 1 nodes, on from version 1.1.
 * n8n shows the definition whose `@version` matches the node, so each version gets its own default.
 */
export function simplifyFields(show: { resource: string; operation: string }): INodeProperties[] {
	const forVersions = (versions: Array<number | { _cnd: { gte: number } }>) => ({
		show: { resource: [show.resource], operation: [show.operation], '@version': versions },
	});
	return [
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: false,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			displayOptions: forVersions([1]),
		},
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			displayOptions: forVersions([{ _cnd: { gte: SIMPLIFY_ON_BY_DEFAULT_FROM } }]),
		},
	];
}
