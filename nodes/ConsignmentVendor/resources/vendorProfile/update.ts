import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { apiPaths } from '../../../shared/apiPaths';
import { httpUrl } from '../../../shared/httpUrl';
import { answerJson, inputError, isEmptyAnswer, perItem, requestForItem } from '../../shared/itemRunner';

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: "Update the vendor's webhook URL or switch its webhooks on or off",
	description: "Change the vendor's webhook URL, or switch its webhook notifications on or off",
};

export const fields: INodeProperties[] = [
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
			},
			{
				displayName: 'Webhook URL',
				name: 'webhookUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://n8n.example.com/webhook/…',
				description: 'The one URL that receives the vendor\'s webhook notifications',
				hint: 'The Consignment Vendor Trigger sets this itself while its workflow is active; changing it here takes notifications away from the trigger',
			},
		],
	},
];

/**
 * Sends only what the user added, in the contract's flat form (`webhook_url`, `webhook_enabled`; the nested
 * `communication_preferences` body of the public docs is not sent). Rejects an empty update and values of the
 * wrong type before any request.
 */
function readVendorUpdate(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const fail = (message: string) => inputError(context.getNode(), itemIndex, message);
	const added = context.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	if (added.webhookUrl !== undefined) {
		const url = httpUrl(added.webhookUrl);
		if (url === undefined) throw fail(`webhook_url must be an http(s) URL, got ${JSON.stringify(added.webhookUrl)}`);
		body.webhook_url = String(added.webhookUrl).trim();
	}
	if (added.webhookEnabled !== undefined) {
		const value = added.webhookEnabled;
		if (value === 'true' || value === 'false') body.webhook_enabled = value === 'true';
		else if (typeof value === 'boolean') body.webhook_enabled = value;
		else throw fail(`webhook_enabled must be true or false, got ${JSON.stringify(value)}`);
	}
	if (Object.keys(body).length === 0) throw fail('add at least one field to update (Webhook URL or Webhook Enabled)');
	return body;
}

export const execute = perItem({
	writes: true,
	read: readVendorUpdate,
	async send(context, body, itemIndex, stop) {
		const answer = await requestForItem(context, itemIndex, stop, { method: 'PATCH', url: apiPaths.vendor, body }, { kind: 'vendor' });
		if (!isEmptyAnswer(answer)) return answerJson(answer);
		const added = context.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
		const changed: IDataObject = { success: true };
		if (added.webhookUrl !== undefined) changed.webhook_url = String(added.webhookUrl).trim();
		if (added.webhookEnabled !== undefined) changed.webhook_enabled = added.webhookEnabled;
		return changed;
	},
});
