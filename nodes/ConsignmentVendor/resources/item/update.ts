/**
 * Item → Update: PATCH /v1/items/{item_id}, one request per input item, as a custom operation.
 *
 * Why not declarative routing: for every input item, n8n's RoutingNode evaluates every parameter of the node up to
 * three times and builds all items' requests before the first one leaves (2,000 items: 20–30 s of CPU before any
 * request). Here each parameter is read once, and items are read while earlier ones are paced by the transport.
 *
 * Each input item yields one output item, paired with it: the service's answer, or under Continue On Fail an error
 * item. Without Continue On Fail, an invalid item stops the node before anything is sent (as in Create and Upsert),
 * and the first failed request stops it: nothing more is started or left waiting in the queue (the requests
 * already sent finish). Errors name the item
 * and the field; 400 (the service's text names the field) and 404 (the item_id) are mapped by `toNodeApiError`.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeApiError } from '../../../shared/errors';
import { isJsonObject } from '../../../shared/jsonObject';
import { apiRequest, type PaceSettings } from '../../../shared/transport';
import { forEachConcurrently } from '../../shared/concurrency';
import { paceSettingsOfNode } from '../../shared/requestOptions';
import { InputValidationError } from '../../shared/schemas';
import { approvedItemFields, itemInputFields } from './helpers/itemFields';
import { fieldMappingProperties } from './helpers/itemMapping';
import { readApprovedItemPatch, readerForItem, readItemIdToUpdate, readItemUpdateInput } from './helpers/itemPayload';
import { itemPaths } from './helpers/itemPaths';
import { isPreview } from './helpers/itemPreview';
import { OutcomeTally } from './helpers/runSummary';

const show = { resource: ['item'], operation: ['update'] };

/**
 * Item ID, where it is a parameter: an approved item's update, or a manually mapped one. (Mapped automatically,
 * the item_id column names the item.) Two properties of one name: n8n's display rules cannot say "approved, or
 * all fields mapped manually" in one.
 */
function itemIdField(where: Record<string, string[]>): INodeProperties {
	return {
		displayName: 'Item ID',
		name: 'itemId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 700123',
		description: 'The platform item ID (item_id) of the item to update',
		hint: 'Use item_id (from the item-created webhook or Get Many), NOT the id field: id is the variant ID and the API does not accept it',
		displayOptions: { show: { ...show, ...where } },
	};
}

export const updateFields: INodeProperties[] = [
	itemIdField({ fieldsToSend: ['all'], fieldMapping: ['manual'] }),
	itemIdField({ fieldsToSend: ['approved'] }),
	{
		displayName: 'Fields to Send',
		name: 'fieldsToSend',
		type: 'options',
		default: 'all',
		description: 'What the item can still take depends on its validation status',
		displayOptions: { show },
		options: [
			{
				name: 'All Item Fields (Not Yet Approved Item)',
				value: 'all',
				description:
					'Pending, draft, rejected or in-reconciliation items need every creation field again; a rejected item goes back to pending',
			},
			{
				name: 'Address and Quantity Only (Approved Item)',
				value: 'approved',
				description: 'An approved item takes only address_id and a quantity decrease',
			},
		],
	},
	{
		displayName:
			'Approved items: only address_id and a quantity decrease are applied; price, MSRP and every other field are ignored (no webhook is sent for a quantity decrease). A rejected item goes back to pending. vendor_sku must stay the same.',
		name: 'updateNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	...fieldMappingProperties('update', { fieldsToSend: ['all'] }),
	...itemInputFields(['update'], { fieldsToSend: ['all'] }),
	...approvedItemFields(['update'], { fieldsToSend: ['approved'] }),
];

/** One input item's request, read and checked. */
interface ItemPatch {
	itemIndex: number;
	/** As entered, for messages (a 404 names it). */
	itemId: string;
	path: string;
	body: IDataObject;
	/** Address and Quantity Only (Approved Item). */
	approved: boolean;
}

/** `read()`, with what it throws as an error naming the item (and the field, for invalid input). */
function readOrFail<T>(context: IExecuteFunctions, itemIndex: number, read: () => T): T {
	try {
		return read();
	} catch (error) {
		if (!(error instanceof InputValidationError)) throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
		throw new NodeOperationError(context.getNode(), error.message, {
			itemIndex,
			description: 'Nothing was sent for this item. Correct the field named above and run the node again.',
		});
	}
}

/** Reads and checks one input item's Item ID, then its fields. @throws NodeOperationError naming the item and the field */
function readPatch(context: IExecuteFunctions, itemIndex: number): ItemPatch {
	const read = readerForItem(context, itemIndex);
	let rawId: unknown;
	let path: string;
	try {
		rawId = readItemIdToUpdate(read);
		path = itemPaths.item(rawId as string);
	} catch (error) {
		throw new NodeOperationError(context.getNode(), `Item index ${itemIndex}: Item ID (item_id) ${(error as Error).message}`, { itemIndex });
	}
	const approved = read('fieldsToSend', 'all') === 'approved';
	const body = readOrFail(context, itemIndex, () => (approved ? readApprovedItemPatch(read, itemIndex) : readItemUpdateInput(read, itemIndex)));
	return { itemIndex, itemId: String(rawId).trim(), path, body: body as IDataObject, approved };
}

/**
 * An approved item's address and quantity go in two requests, the address first: the contract changes its quantity
 * only by a decrease, which the node cannot check (the service does not show an approved item's quantity), and a
 * refused quantity must not take the address change with it.
 */
function requestBodies(patch: ItemPatch): IDataObject[] {
	const { quantity, ...rest } = patch.body;
	return patch.approved && quantity !== undefined && rest.address_id !== undefined ? [rest, { quantity }] : [patch.body];
}

/** What the output says of an approved item's quantity: the service's 200 does not tell whether it applied it. */
const APPROVED_QUANTITY_NOTE =
	'Sent. An approved item takes a quantity only when it is lower than its current one (an increase is not applied), and the service does not show that quantity: check the item if the quantity may have been an increase';

/** Sends one item's PATCH (two for an approved item's address and quantity); the answer as the output item. @throws the mapped error (404 names the item_id) */
async function sendPatch(context: IExecuteFunctions, patch: ItemPatch, pace: PaceSettings, stop: AbortSignal): Promise<INodeExecutionData> {
	const bodies = requestBodies(patch);
	let answer: unknown;
	for (const [position, body] of bodies.entries()) {
		try {
			answer = (await apiRequest(context, { method: 'PATCH', url: patch.path, body, signal: stop }, pace)).body;
		} catch (error) {
			const mapped = toNodeApiError(context.getNode(), error, { itemIndex: patch.itemIndex, subject: { kind: 'item', id: patch.itemId } });
			if (position > 0) {
				// The address request succeeded; what became of the quantity is what the error below says.
				mapped.description = `address_id ${String(patch.body.address_id)} was applied (an earlier request); this error is the quantity ${String(patch.body.quantity)}'s request. ${mapped.description ?? ''}`.trim();
			}
			throw mapped;
		}
	}
	// The contract answers an object; anything else still makes one output item whose json is an object.
	const json = isJsonObject(answer) ? answer : answer === undefined || answer === '' ? {} : { response: answer as IDataObject[string] };
	return { json: patch.approved && patch.body.quantity !== undefined ? { ...json, quantityNote: APPROVED_QUANTITY_NOTE } : json, pairedItem: { item: patch.itemIndex } };
}

/** Under Continue On Fail: `error` (and `message`, what to do) are what n8n's error output expects (itemFailures.ts). */
function errorOutput(error: unknown, itemIndex: number): INodeExecutionData {
	const { message, description } = error as { message?: string; description?: string | null };
	return { json: { error: message ?? String(error), ...(description ? { message: description } : {}) }, pairedItem: { item: itemIndex } };
}

/**
 * Preview Only: each item read and checked as a real run does; what it would send, or why a real run would refuse it
 * (the same texts). No request at all: Update reads nothing to find its items.
 */
function previewUpdate(context: IExecuteFunctions, count: number, tally: OutcomeTally): INodeExecutionData[][] {
	const output = Array.from({ length: count }, (_, itemIndex): INodeExecutionData => {
		let patch: ItemPatch;
		try {
			patch = readPatch(context, itemIndex);
		} catch (error) {
			tally.add('invalid');
			return { json: { preview: 'invalid', ...errorOutput(error, itemIndex).json }, pairedItem: { item: itemIndex } };
		}
		tally.add('would update');
		const fields = Object.keys(patch.body).filter((field) => field !== 'vendor_sku');
		// Update reads no listing, so what differs from the item is not known here.
		return { json: { preview: 'would update', item_id: patch.itemId, fields, requests: requestBodies(patch).length }, pairedItem: { item: itemIndex } };
	});
	tally.show(context, true);
	return [output];
}

export async function update(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const count = this.getInputData().length;
	const tally = new OutcomeTally();
	if (isPreview(this)) return previewUpdate(this, count, tally);
	const continueOnFail = this.continueOnFail();
	const pace = paceSettingsOfNode(this);
	// Without Continue On Fail every item is checked first, so an invalid one stops the node before any request.
	// With it nothing stops the node, so each item is read just before it is sent: n8n's evaluation of its
	// expressions then overlaps with the service's pace instead of delaying the first request.
	const checked = continueOnFail ? undefined : Array.from({ length: count }, (_, itemIndex) => readPatch(this, itemIndex));
	const output = new Array<INodeExecutionData>(count);
	// Without Continue On Fail the first failure stops the node: nothing more is started, requests still waiting in
	// the queue are taken out of it, and those already sent finish. A cancelled execution stops reading items too.
	const stop = new AbortController();
	const cancelled = () => stop.signal.aborted || this.getExecutionCancelSignal?.()?.aborted === true;
	let firstFailure: { error: unknown } | undefined;
	await forEachConcurrently(count, pace.maxConcurrent, async (itemIndex) => {
		if (cancelled()) return;
		let stage = 'invalid';
		try {
			const patch = checked?.[itemIndex] ?? readPatch(this, itemIndex);
			stage = 'failed';
			output[itemIndex] = await sendPatch(this, patch, pace, stop.signal);
			tally.add('updated');
		} catch (error) {
			tally.add(stage);
			if (continueOnFail) output[itemIndex] = errorOutput(error, itemIndex);
			else if (!stop.signal.aborted) {
				firstFailure = { error };
				stop.abort();
			}
		}
	});
	if (firstFailure) throw firstFailure.error;
	if (this.getExecutionCancelSignal?.()?.aborted) throw new NodeOperationError(this.getNode(), 'The execution was cancelled');
	tally.show(this, false);
	return [output];
}
