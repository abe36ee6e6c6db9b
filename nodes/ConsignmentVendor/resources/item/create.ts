/**
 * Item → Create: POST /v1/consignments/{consignment_id}/items, as a custom operation because one request
 * carries up to 500 input items (see itemCreation.ts) and its 207 answer is mapped back per input item.
 *
 * Every input item is validated first; an invalid item makes no request. Without Continue On Fail, any
 * invalid item stops the node before anything is sent, so a rerun after fixing the data creates nothing
 * twice. Each input item yields exactly one output item, paired with it.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { consignmentLocator } from '../../shared/resourceLocators';
import { InputValidationError } from '../../shared/schemas';
import { failureOutput, failuresError, validationFailure, type ItemFailure } from './itemFailures';
import { itemInputFields } from './itemFields';
import { readerForItem, readItemCreationInput } from './itemPayload';
import { submitCreations, type PendingCreation } from './itemCreation';
import { readConsignmentId, rejectDuplicateSkus, withoutFailed } from './itemInputChecks';

export const createFields: INodeProperties[] = [
	consignmentLocator({
		description:
			'Consignment the items are created in. Consignments cannot be created through the API: ask the service for one.',
		show: { resource: ['item'], operation: ['create'] },
	}),
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

/** Validates every input item; the valid ones are ready to send, the invalid ones are failures. */
function prepare(context: IExecuteFunctions, count: number): { pending: PendingCreation[]; failures: ItemFailure[] } {
	const pending: PendingCreation[] = [];
	const failures: ItemFailure[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const read = readerForItem(context, itemIndex);
		try {
			const consignmentId = readConsignmentId(context, itemIndex);
			pending.push({ itemIndex, consignmentId, payload: readItemCreationInput(read, itemIndex) });
		} catch (error) {
			if (!(error instanceof InputValidationError)) throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
			const sku = read('vendorSku', '');
			failures.push(validationFailure(error, typeof sku === 'string' && sku.trim() ? sku.trim() : undefined));
		}
	}
	const duplicates = rejectDuplicateSkus(pending);
	return { pending: withoutFailed(pending, duplicates), failures: [...failures, ...duplicates] };
}

export async function create(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const count = this.getInputData().length;
	const { pending, failures } = prepare(this, count);
	const continueOnFail = this.continueOnFail();
	if (failures.length && !continueOnFail) throw failuresError(this.getNode(), failures, count, 0);

	const outputs = new Array<INodeExecutionData>(count);
	for (const failure of failures) outputs[failure.itemIndex] = failureOutput(failure);
	const results = await submitCreations(this, pending);
	let written = 0;
	for (const [itemIndex, result] of results) {
		if (result.ok) {
			written++;
			outputs[itemIndex] = { json: result.json, pairedItem: { item: itemIndex } };
		} else {
			failures.push(result.failure);
			outputs[itemIndex] = failureOutput(result.failure);
		}
	}
	if (failures.length && !continueOnFail) throw failuresError(this.getNode(), failures, count, written);
	return [outputs];
}
