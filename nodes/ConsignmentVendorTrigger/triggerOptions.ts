/**
 * The trigger's Options collection, and reading it with every default applied. Options the user never added
 * are absent from the saved parameters, so defaults that are "on" are applied here, not only in the UI.
 */
import type { INodeProperties, IWebhookFunctions } from 'n8n-workflow';

import { DEFAULT_LABEL_MAX_MB, DEFAULT_LABEL_TIMEOUT_SECONDS } from './label/downloadLabel';
import { DEFAULT_WINDOW_HOURS } from './delivery/repeatedDeliveries';

const whenDownloading = { show: { downloadLabel: [true] } };

export const optionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Allow HTTP and Private Label Hosts',
			name: 'labelAllowPrivateHosts',
			type: 'boolean',
			default: false,
			displayOptions: whenDownloading,
			description:
				'Whether labels may be downloaded over plain http and from private, loopback or link-local addresses. Turn on only for a test server or an internal mirror you run: otherwise a forged pdf_url could reach into your network.',
		},
		{
			displayName: 'Download Shipping Label',
			name: 'downloadLabel',
			type: 'boolean',
			default: false,
			description:
				'Whether to download the label of Item Purchased events (pdf_url) as binary data. Only from signed requests (a Webhook Signing Secret in the credential) or from Trusted Label Hosts; https only. A label that is not downloaded adds label_error to the item, which still runs.',
		},
		{
			displayName: 'Ignore Repeated Deliveries',
			name: 'ignoreRepeatedDeliveries',
			type: 'boolean',
			default: true,
			description:
				'Whether an event delivered again within the repeat window is answered 200 without starting the workflow. On unless you turn it off: the service may send an event again when its first delivery was slow or unanswered.',
		},
		{
			displayName: 'Include Raw Body',
			name: 'includeRawBody',
			type: 'boolean',
			default: false,
			description: 'Whether to add the request body as received, in raw_body',
		},
		{
			displayName: 'Label Download Timeout (Seconds)',
			name: 'labelTimeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_LABEL_TIMEOUT_SECONDS,
			displayOptions: whenDownloading,
			description: 'How long the whole download may take; a label not complete by then is reported in label_error',
		},
		{
			displayName: 'Label Size Limit (MB)',
			name: 'labelMaxSizeMb',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_LABEL_MAX_MB,
			displayOptions: whenDownloading,
			description: 'Larger labels are not downloaded (label_error says so)',
		},
		{
			displayName: 'Put Label in Field',
			name: 'labelBinaryProperty',
			type: 'string',
			default: 'data',
			displayOptions: whenDownloading,
			description: 'Name of the binary field to put the downloaded label in',
		},
		{
			displayName: 'Repeat Window (Hours)',
			name: 'repeatWindowHours',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_WINDOW_HOURS,
			displayOptions: { show: { ignoreRepeatedDeliveries: [true] } },
			description: 'How long after its first delivery an event counts as repeated',
		},
		{
			displayName: 'Trusted Label Hosts',
			name: 'labelTrustedHosts',
			type: 'string',
			default: '',
			placeholder: 'labels.example.com, *.cdn.example.com',
			displayOptions: whenDownloading,
			description:
				'Hosts labels may be downloaded from, comma-separated; *.example.com matches its subdomains. Needed when the credential has no Webhook Signing Secret; when set, it applies to signed requests too.',
			hint: 'Without a signing secret and without this list, labels are not downloaded: anyone who knows the webhook URL could otherwise make n8n fetch a URL of their choosing',
		},
	],
};

export interface TriggerOptions {
	includeRawBody: boolean;
	ignoreRepeatedDeliveries: boolean;
	repeatWindowHours: number;
	downloadLabel: boolean;
	labelBinaryProperty: string;
	labelTrustedHosts: string;
	labelAllowPrivateHosts: boolean;
	labelMaxSizeMb: number;
	labelTimeoutSeconds: number;
}

const positive = (value: unknown, fallback: number) =>
	typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;

export function readTriggerOptions(context: IWebhookFunctions): TriggerOptions {
	const raw = context.getNodeParameter('options', {}) as Partial<Record<keyof TriggerOptions, unknown>>;
	const property = typeof raw.labelBinaryProperty === 'string' ? raw.labelBinaryProperty.trim() : '';
	return {
		includeRawBody: raw.includeRawBody === true,
		ignoreRepeatedDeliveries: raw.ignoreRepeatedDeliveries !== false,
		repeatWindowHours: positive(raw.repeatWindowHours, DEFAULT_WINDOW_HOURS),
		downloadLabel: raw.downloadLabel === true,
		labelBinaryProperty: property === '' ? 'data' : property,
		labelTrustedHosts: typeof raw.labelTrustedHosts === 'string' ? raw.labelTrustedHosts : '',
		labelAllowPrivateHosts: raw.labelAllowPrivateHosts === true,
		labelMaxSizeMb: positive(raw.labelMaxSizeMb, DEFAULT_LABEL_MAX_MB),
		labelTimeoutSeconds: positive(raw.labelTimeoutSeconds, DEFAULT_LABEL_TIMEOUT_SECONDS),
	};
}
