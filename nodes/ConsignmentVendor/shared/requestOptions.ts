/**
 * n8n's own Request Options (Batching, Ignore SSL Issues, Proxy, Timeout) are kept under their names: n8n gave them
 * to the node while it was declarative, so saved workflows hold them; the runner and the transport apply them.
 */
import type { INodeProperties } from 'n8n-workflow';

import { REQUEST_OPTIONS_PARAMETER } from '../../shared/transport';

// The defaults shown are transport/settings.ts's DEFAULT_REQUEST_SETTINGS (the linter wants literals; a unit test compares).
export const paceOptions: INodeProperties[] = [
		{
			displayName: 'Give Up After No Success For (Seconds)',
			name: 'giveUpAfterNoSuccessSeconds',
			type: 'number',
			default: 120,
			typeOptions: { minValue: 1 },
			description:
				'While the service answers "too many requests", waiting requests are kept until no request with this credential has succeeded for this long; then they fail with a message',
		},
		{
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrent',
			type: 'number',
			default: 32,
			typeOptions: { minValue: 1 },
			description: 'How many requests this node has in flight at once (all executions using the credential share one queue)',
		},
		{
			displayName: 'Max Requests per Second',
			name: 'maxRequestsPerSecond',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description:
				'Optional ceiling, never needed to stay within the service\'s quota: 0 = none, the pace is learned from the service\'s answers (also when several n8n workers share the quota). Set it to keep this node below a rate of your choosing.',
			hint: 'In queue mode each worker keeps this ceiling on its own',
		},
		{
			displayName: 'Max Wait per Request (Minutes)',
			name: 'maxWaitMinutes',
			type: 'number',
			default: 15,
			typeOptions: { minValue: 1 },
			description: 'The longest one request may wait in all (queued, paused, repeated) before it fails',
		},
];

/** As n8n-core (1.x and 2.x alike) defines them for declarative nodes, but for the Timeout's default and texts. */
const n8nRequestOptions: INodeProperties[] = [
	{
		displayName: 'Batching',
		name: 'batching',
		placeholder: 'Add Batching',
		type: 'fixedCollection',
		typeOptions: { multipleValues: false },
		default: { batch: {} },
		options: [
			{
				displayName: 'Batching',
				name: 'batch',
				values: [
					{
						displayName: 'Items per Batch',
						name: 'batchSize',
						type: 'number',
						typeOptions: { minValue: -1 },
						default: 50,
						description: 'Input will be split in batches to throttle requests. -1 for disabled. 0 will be treated as 1.',
					},
					{
						displayName: 'Batch Interval (Ms)',
						name: 'batchInterval',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 1000,
						description: 'Time (in milliseconds) between each batch of requests. 0 for disabled.',
					},
				],
			},
		],
	},
	{
		displayName: 'Ignore SSL Issues (Insecure)',
		name: 'allowUnauthorizedCerts',
		type: 'boolean',
		noDataExpression: true,
		default: false,
		description: 'Whether to connect even if SSL certificate validation is not possible',
	},
	{
		displayName: 'Proxy',
		name: 'proxy',
		type: 'string',
		default: '',
		placeholder: 'e.g. http://myproxy:3128',
		description: 'HTTP proxy to use. If authentication is required it can be defined as follow: http://username:password@myproxy:3128.',
	},
	{
		displayName: 'Timeout',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		// What the node waits when the option is left out (transport/settings.ts): adding it must not change that.
		default: 60000,
		description:
			'How long, in ms, each attempt of a request waits for the service\'s answer. A read that times out is sent again, up to 4 attempts in all, so it can take about 4 times this; a creation or cancellation is sent once.',
		hint: 'Per attempt; leaving it out also means 60,000 ms',
	},
];

export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: REQUEST_OPTIONS_PARAMETER,
	type: 'collection',
	isNodeSetting: true,
	placeholder: 'Add Option',
	default: {},
	// Sorted by name, as n8n showed them when it merged its own options with these.
	options: [...n8nRequestOptions, ...paceOptions].sort((a, b) => a.displayName.localeCompare(b.displayName)),
};
