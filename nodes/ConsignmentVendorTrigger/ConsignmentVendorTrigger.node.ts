import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ALL_EVENTS, OTHER_EVENTS } from './delivery/events';
import { checkExists, create, deleteRegistration } from './registration/webhookMethods';
import { receiveWebhook } from './delivery/receive';
import { optionsProperty } from './triggerOptions';
import { WEBHOOK_NAME, WEBHOOK_PATH } from './registration/webhookUrls';

export class ConsignmentVendorTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Consignment Vendor Trigger',
		name: 'consignmentVendorTrigger',
		icon: { light: 'file:consignmentVendorTrigger.svg', dark: 'file:consignmentVendorTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{($parameter["events"] || []).includes("*") ? "All events" : ($parameter["events"] || []).join(", ")}}',
		// n8n's node list shows this node and Consignment Vendor as one entry whose details page takes the TRIGGER's
		// description (n8n 2.x's node creator merges `<name>Trigger` into `<name>`), so it has to describe both.
		description:
			'Start a workflow on a consignment marketplace vendor event, or submit and update items, manage addresses, read consignments and cancel orders',
		defaults: { name: 'Consignment Vendor Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'consignmentVendorApi', required: true }],
		webhooks: [{ name: WEBHOOK_NAME, httpMethod: 'POST', responseMode: 'onReceived', path: WEBHOOK_PATH }],
		properties: [
			{
				displayName:
					'The service has one webhook URL per vendor: only one active workflow per credential can use this trigger. Activating it replaces the vendor\'s webhook URL (deactivating puts the previous one back). Listening for a test event is refused while a workflow receives the vendor\'s events in production: deactivate it first, or open a past execution.',
				name: 'singleUrlNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName:
					'Signing is recommended: set the vendor\'s signing secret as Webhook Signing Secret in the credential, and requests without a valid X-TRR-Signature are rejected. Without it, any request to this URL is accepted.',
				name: 'signingNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [ALL_EVENTS],
				description: 'Which events start the workflow. Other events are acknowledged and ignored.',
				options: [
					{
						name: 'Address Processed',
						value: 'address_creation',
						description: 'An address create, update or delete was processed (address_creation)',
					},
					{
						name: 'All Events',
						value: ALL_EVENTS,
						description: 'Every event, including ones not listed here',
					},
					{
						name: 'Item Purchased',
						value: 'item_purchased',
						description: 'A customer bought one of the vendor\'s items (item_purchased)',
					},
					{
						name: 'Item Upload Failed',
						value: 'invalid_item_upload',
						description: 'An item upload failed validation (invalid_item_upload)',
					},
					{
						name: 'Item Uploaded',
						value: 'successful_item_upload',
						description:
							'An item was created or updated successfully, including the item-created notice with its item_id (successful_item_upload)',
					},
					{
						name: 'Other Events',
						value: OTHER_EVENTS,
						description: 'Events not listed here, and payloads without an operation',
					},
				],
			},
			optionsProperty,
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteRegistration.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveWebhook.call(this);
	}
}
