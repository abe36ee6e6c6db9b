import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { pollItemStatuses } from './pollItemStatuses';

export class ConsignmentVendorItemTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Consignment Vendor Item Trigger',
		name: 'consignmentVendorItemTrigger',
		icon: { light: 'file:consignmentVendorItemTrigger.svg', dark: 'file:consignmentVendorItemTrigger.dark.svg' },
		group: ['trigger'],
		// 2: one event shape (price in cents, quantity or null: eventShape.ts); version 1 nodes keep the records as listed.
		version: [1, 2],
		subtitle: '={{($parameter["events"] || []).join(", ")}}',
		description: "Starts the workflow when one of the vendor's items changes validation status (approved, rejected, deleted, ...) or a new item appears",
		defaults: { name: 'Consignment Vendor Item Trigger' },
		// n8n adds the Poll Times parameter and runs poll() on that schedule.
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'consignmentVendorApi', required: true }],
		properties: [
			{
				displayName:
					'Each scheduled poll reads the status of every item (about one request per 100 items); activating the workflow reads only the first page of each listing and takes note of the statuses. Changes after the activation start the workflow, each once.',
				name: 'pollNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['status_changed', 'new_item'],
				description: 'Which changes start the workflow',
				options: [
					{
						name: 'New Item',
						value: 'new_item',
						description: 'An item appeared in the listings since the last poll (event new_item)',
					},
					{
						name: 'Status Changed',
						value: 'status_changed',
						description: "An item's validation status changed, e.g. pending to approved (event status_changed)",
					},
				],
			},
			{
				displayName: 'Only When New Status Is',
				name: 'statuses',
				type: 'multiOptions',
				default: [],
				description: 'Start the workflow only for items whose status is now one of these. Empty: any status.',
				options: [
					{ name: 'Approved', value: 'approved' },
					{ name: 'Deleted', value: 'deleted' },
					{ name: 'Draft', value: 'draft' },
					{ name: 'Pending', value: 'pending' },
					{ name: 'Reconciliation', value: 'reconciliation' },
					{ name: 'Rejected', value: 'rejected' },
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollItemStatuses(this);
	}
}
