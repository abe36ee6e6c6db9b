import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withActionableErrors } from '../../shared/oneRequestRouting';
import { summaryWhenEmpty } from '../../shared/output';

/**
 * Sends only what the user added, in the contract's flat form (`webhook_url`, `webhook_enabled`; the nested
 * `communication_preferences` body of the public docs is not sent). Rejects an empty update and values of the
 * wrong type before any request.
 */
async function validateVendorUpdate(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const itemIndex = this.getItemIndex();
	const fail = (message: string) =>
		new NodeOperationError(this.getNode(), `Item index ${itemIndex}: ${message}`, {
			itemIndex,
			description: 'Nothing was sent for this item.',
		});
	const body = { ...((requestOptions.body ?? {}) as IDataObject) };
	if (body.webhook_url !== undefined) {
		const url = typeof body.webhook_url === 'string' ? body.webhook_url.trim() : '';
		let parsed: URL | undefined;
		try {
			parsed = new URL(url);
		} catch {
			parsed = undefined;
		}
		if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
			throw fail(`webhook_url must be an http(s) URL, got ${JSON.stringify(body.webhook_url)}`);
		}
		body.webhook_url = url;
	}
	if (body.webhook_enabled !== undefined) {
		const value = body.webhook_enabled;
		if (value === 'true' || value === 'false') body.webhook_enabled = value === 'true';
		else if (typeof value !== 'boolean') throw fail(`webhook_enabled must be true or false, got ${JSON.stringify(value)}`);
	}
	if (Object.keys(body).length === 0) {
		throw fail('add at least one field to update (Webhook URL or Webhook Enabled)');
	}
	requestOptions.body = body;
	return requestOptions;
}

export const vendorUpdateOperation: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: "Update the vendor's webhook URL or switch its webhooks on or off",
	description: "Change the vendor's webhook URL, or switch its webhook notifications on or off",
	routing: withActionableErrors(
		{
			request: { method: 'PATCH', url: '/v1/vendor' },
			send: { preSend: [validateVendorUpdate] },
			output: {
				postReceive: [
					summaryWhenEmpty(function () {
						const fields = this.getNodeParameter('updateFields', {}) as IDataObject;
						const changed: IDataObject = { success: true };
						if (fields.webhookUrl !== undefined) changed.webhook_url = String(fields.webhookUrl).trim();
						if (fields.webhookEnabled !== undefined) changed.webhook_enabled = fields.webhookEnabled;
						return changed;
					}),
				],
			},
		},
		{ subject: () => ({ kind: 'vendor' }) },
	),
};

export const vendorUpdateFields: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['vendor'], operation: ['update'] } },
		description: 'Only the fields added here are sent; the others keep their current value',
		options: [
			{
				displayName: 'Webhook Enabled',
				name: 'webhookEnabled',
				type: 'boolean',
				default: true,
				description: 'Whether the service sends webhook notifications (item uploads, purchases, address events) to the webhook URL',
				routing: { send: { type: 'body', property: 'webhook_enabled' } },
			},
			{
				displayName: 'Webhook URL',
				name: 'webhookUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://n8n.example.com/webhook/…',
				description: 'The one URL that receives the vendor\'s webhook notifications',
				hint: 'The Consignment Vendor Trigger sets this itself while its workflow is active; changing it here takes notifications away from the trigger',
				routing: { send: { type: 'body', property: 'webhook_url' } },
			},
		],
	},
];
