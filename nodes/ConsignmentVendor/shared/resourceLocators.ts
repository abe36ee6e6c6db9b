/**
 * Resource-locator fields (pick from a searchable list, or enter an ID) shared by several operations.
 *
 * Exported API:
 * - `consignmentLocator({ name?, displayName?, description?, show, required? })`: a consignment, listed by
 *   `searchConsignments`. Default name `consignmentId`. Read it with
 *   `getNodeParameter(name, i, undefined, { extractValue: true })` (RoutingNode extracts it for `$value`).
 * - `activeAddressLocator({ ... })`: an ACTIVE address, listed by `searchActiveAddresses`. Default name `addressId`.
 * `show` is the `displayOptions.show` of the field.
 */
import type { INodeProperties } from 'n8n-workflow';

import { ACTIVE_ADDRESS_SEARCH, CONSIGNMENT_SEARCH } from './listSearch';

interface LocatorOptions {
	name?: string;
	displayName?: string;
	description?: string;
	hint?: string;
	show: NonNullable<INodeProperties['displayOptions']>['show'];
	required?: boolean;
}

export function consignmentLocator(options: LocatorOptions): INodeProperties {
	return {
		displayName: options.displayName ?? 'Consignment',
		name: options.name ?? 'consignmentId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description:
			options.description ??
			'The consignment. Consignments cannot be created through the API; the service sets them up on request.',
		hint: options.hint,
		displayOptions: { show: options.show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: CONSIGNMENT_SEARCH, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. cons_12345 or 1001',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*[^\\s/?#]+\\s*$', errorMessage: 'Enter one consignment ID, without spaces or slashes' },
					},
				],
			},
		],
	};
}

export function activeAddressLocator(options: LocatorOptions): INodeProperties {
	return {
		displayName: options.displayName ?? 'Address',
		name: options.name ?? 'addressId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description ?? 'The address (its address_id). The list shows active addresses only.',
		hint: options.hint,
		displayOptions: { show: options.show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: ACTIVE_ADDRESS_SEARCH, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 301',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^\\s*[^\\s/?#]+\\s*$', errorMessage: 'Enter one address ID, without spaces or slashes' },
					},
				],
			},
		],
	};
}
