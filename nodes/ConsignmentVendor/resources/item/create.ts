/**
 * Item → Create: POST /v1/consignments/{consignment_id}/items, as a custom operation because one request
 * carries up to 500 input items (see itemCreation.ts) and its 207 answer is mapped back per input item.
 *
 * An invalid item makes no request. Without Continue On Fail every input item is validated first, and any
 * invalid item stops the node before anything is sent, so a rerun after fixing the data creates nothing twice.
 * With it nothing stops the node, so a batch goes out as soon as it is full while later items are still read
 * (n8n evaluates every item's expressions: seconds for thousands of items). Each input item yields exactly one
 * output item, paired with it.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { consignmentLocator } from '../../shared/resourceLocators';
import { CreationStream, submitCreations, type PendingCreation } from './helpers/itemCreation';
import { itemInputFields } from './helpers/itemFields';
import { fieldMappingProperties } from './helpers/itemMapping';
import { InputItemChecker, readConsignmentId, validateInputItems, type CheckResult } from './helpers/itemInputChecks';
import type { ParameterReader } from './helpers/itemPayload';
import { ItemOutputs } from './helpers/itemOutputs';
import { isPreview, recordInvalidRow } from './helpers/itemPreview';
import { readItemCreationInput } from './helpers/itemPayload';

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create items in a consignment by consignment ID, up to 500 per request',
	description:
		'Submit new items (vendor SKU, category, condition, designer, images, quantity, prices) to the consignment with the given ID, up to 500 per request',
};

export const fields: INodeProperties[] = [
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

/** Items read between two turns of the event loop, so a full batch's request leaves while later items are read. */
const ITEMS_PER_TURN = 10;

/**
 * Under Continue On Fail any error reading an item (an expression that throws, too) fails that item only: earlier
 * batches may already be created, so stopping the node would hide them and invite a rerun that creates them twice.
 */
function checkOrFail(checker: InputItemChecker<PendingCreation>, itemIndex: number): CheckResult<PendingCreation> {
	try {
		return checker.check(itemIndex);
	} catch (error) {
		return { failure: { itemIndex, messages: [(error as Error).message] } };
	}
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const readCreation = (parameter: ParameterReader, itemIndex: number): PendingCreation => ({
		itemIndex,
		consignmentId: readConsignmentId(this, itemIndex),
		payload: readItemCreationInput(parameter, itemIndex),
	});
	const outputs = new ItemOutputs(this);
	if (isPreview(this)) {
		// Every row read and checked as below; a valid one would be submitted (Create looks nothing up).
		const { valid, failures } = validateInputItems(this, readCreation);
		failures.forEach((failure) => recordInvalidRow(outputs, failure));
		for (const { itemIndex, consignmentId, payload } of valid) {
			outputs.recordUnchanged(itemIndex, { preview: 'would create', vendor_sku: payload.vendor_sku, consignment_id: consignmentId }, 'would create');
		}
		return outputs.result(true);
	}
	if (this.continueOnFail()) {
		const checker = new InputItemChecker(this, readCreation);
		const stream = new CreationStream(this, (itemIndex, result) => outputs.record(itemIndex, result));
		const count = this.getInputData().length;
		const cancelled = () => this.getExecutionCancelSignal?.()?.aborted === true;
		for (let itemIndex = 0; itemIndex < count && !cancelled(); itemIndex++) {
			const checked = checkOrFail(checker, itemIndex);
			if ('valid' in checked) stream.add(checked.valid);
			else outputs.recordFailures([checked.failure]);
			if (itemIndex % ITEMS_PER_TURN === ITEMS_PER_TURN - 1) await sleep(0);
		}
		await stream.finish();
		return outputs.result();
	}
	const { valid, failures } = validateInputItems(this, readCreation);
	outputs.recordFailures(failures);
	outputs.stopOnFailure();
	for (const [itemIndex, result] of await submitCreations(this, valid)) outputs.record(itemIndex, result);
	return outputs.result();
}
