import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_PAGE_SIZE } from '../../shared/pagination';

/**
 * Return All, Limit and Page Size: the parameters of every list operation (shared/listOperation.ts). Without their
 * resource and operation: the operation's file gives its display options once (updateDisplayOptions).
 */
export function listFields(): INodeProperties[] {
	return [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	{
		displayName: 'Options',
		name: 'listOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				default: DEFAULT_PAGE_SIZE,
				typeOptions: { minValue: 1 },
				description:
					'How many records to ask for per request. When not set, Return All asks for 100 per request and falls back to 20 (the size the service recommends) if the service refuses 100; Limit asks for 20. A size set here is always sent as it is.',
				hint: 'Leave unset unless the service asks for a particular size: pages are followed by cursor, so a service that sends fewer per page still returns everything',
			},
		],
	},
	];
}
