/** Read with `getNodeParameter(name, i, undefined, { extractValue: true })`, which also applies the ID mode's checks. */
import type { INodeProperties } from 'n8n-workflow';

import { ACTIVE_ADDRESS_SEARCH, CONSIGNMENT_SEARCH } from './listSearch';

interface LocatorOptions {
	name?: string;
	displayName?: string;
	description?: string;
	hint?: string;
	required?: boolean;
}

interface LocatorKind {
	displayName: string;
	name: string;
	description: string;
	searchListMethod: string;
	/** Used in the "By ID" error message, e.g. `consignment`. */
	noun: string;
	idPlaceholder: string;
}

function locator(kind: LocatorKind, options: LocatorOptions): INodeProperties {
	return {
		displayName: options.displayName ?? kind.displayName,
		name: options.name ?? kind.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description ?? kind.description,
		hint: options.hint,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: kind.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: kind.idPlaceholder,
				validation: [
					{
						type: 'regex',
						// One path segment: spaces around it are trimmed, a slash, ? or # would reach another URL.
						properties: {
							regex: '^\\s*[^\\s/?#]+\\s*$',
							errorMessage: `Enter one ${kind.noun} ID, without spaces or slashes`,
						},
					},
				],
			},
		],
	};
}

export function consignmentLocator(options: LocatorOptions): INodeProperties {
	return locator(
		{
			displayName: 'Consignment',
			name: 'consignmentId',
			description:
				'The consignment. Consignments cannot be created through the API; the service sets them up on request.',
			searchListMethod: CONSIGNMENT_SEARCH,
			noun: 'consignment',
			idPlaceholder: 'e.g. cons_12345 or 1001',
		},
		options,
	);
}

export function activeAddressLocator(options: LocatorOptions): INodeProperties {
	return locator(
		{
			displayName: 'Address',
			name: 'addressId',
			description: 'The address (its address_id). The list shows active addresses only.',
			searchListMethod: ACTIVE_ADDRESS_SEARCH,
			noun: 'address',
			idPlaceholder: 'e.g. 301',
		},
		options,
	);
}
