/**
 * Item → Create: POST /v1/consignments/{consignment_id}/items, as a custom operation because one request
 * carries up to 500 input items (see itemCreation.ts) and its 207 answer is mapped back per input item.
 *
 * Every input item is validated first; an invalid item makes no request. Without Continue On Fail, any
 * invalid item stops the node before anything is sent, so a rerun after fixing the data creates nothing
 * twice. Each input item yields exactly one output item, paired with it.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { consignmentLocator } from '../../shared/resourceLocators';
import { submitCreations } from './helpers/itemCreation';
import { itemInputFields } from './helpers/itemFields';
import { fieldMappingProperties } from './helpers/itemMapping';
import { readConsignmentId, validateInputItems } from './helpers/itemInputChecks';
import { ItemOutputs } from './helpers/itemOutputs';
import { readItemCreationInput } from './helpers/itemPayload';

export const createFields: INodeProperties[] = [
	consignmentLocator({
		description:
			'Consignment the items are created in. Consignments cannot be created through the API: ask the service for one.',
		show: { resource: ['item'], operation: ['create'] },
	}),
	...fieldMappingProperties('create'),
	...itemInputFields(['create']),
	{
		displayName:
			'All input items are sent together, at most 500 per request per consignment. The service answers without item IDs: each item\'s item_id arrives later by webhook (Consignment Vendor Trigger, "successful_item_upload"). The output says "submitted".',
		name: 'createNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['item'], operation: ['create'] } },
	},
];

export async function create(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const { valid, failures } = validateInputItems(this, (parameter, itemIndex) => ({
		itemIndex,
		consignmentId: readConsignmentId(this, itemIndex),
		payload: readItemCreationInput(parameter, itemIndex),
	}));
	const outputs = new ItemOutputs(this);
	outputs.recordFailures(failures);
	outputs.stopOnFailure();
	for (const [itemIndex, result] of await submitCreations(this, valid)) outputs.record(itemIndex, result);
	return outputs.result();
}
