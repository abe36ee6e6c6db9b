/**
 * How this node's requests share the service's rate limit (the transport's queue). n8n merges these options
 * into the "Request Options" it gives every node with `requestDefaults` (node settings, beside its Batching,
 * Proxy and Timeout, which every operation honours too: shared/itemRunner.ts, transport); empty means the
 * defaults in transport/settings.ts, which need no knowledge of the service's quota.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paceSettingsFrom, REQUEST_OPTIONS_PARAMETER, type PaceSettings } from '../../shared/transport';

// The defaults shown are transport/settings.ts's DEFAULT_PACE (the linter wants literals; a unit test compares).
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: REQUEST_OPTIONS_PARAMETER,
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
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
				'A fixed ceiling, if you know the service\'s quota for your account. 0 = adaptive: learned from the service\'s answers.',
			hint: 'Several n8n workers (queue mode) each keep this pace: divide the quota by the number of workers',
		},
		{
			displayName: 'Max Wait per Request (Minutes)',
			name: 'maxWaitMinutes',
			type: 'number',
			default: 15,
			typeOptions: { minValue: 1 },
			description: 'The longest one request may wait in all (queued, paused, repeated) before it fails',
		},
	],
};

/** Pace settings of the node's operations (node-wide: read from the first item). */
export function paceSettingsOfNode(context: IExecuteFunctions): PaceSettings {
	return paceSettingsFrom(context.getNodeParameter(REQUEST_OPTIONS_PARAMETER, 0, {}));
}
