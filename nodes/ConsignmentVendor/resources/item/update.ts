/**
 * Item → Update, not declarative: n8n's RoutingNode evaluates every parameter up to three times per item and builds
 * all requests before the first leaves (2,000 items: 20–30 s of CPU). Here each parameter is read once, and items
 * are read while earlier ones are paced by the transport.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { toNodeApiError } from '../../../shared/errors';
import { apiRequest } from '../../../shared/transport';
import { answerJson, errorItemOf, inputError, refusedInput, runPerItem } from '../../shared/itemRunner';
import { approvedItemFields, itemInputFields } from './helpers/itemFields';
import { fieldMappingProperties } from './helpers/itemMapping';
import { readApprovedItemPatch, readerForItem, readItemIdToUpdate, readItemUpdateInput } from './helpers/itemPayload';
import { apiPaths } from '../../../shared/apiPaths';
import { isPreview, amountsOf } from './helpers/itemPreview';
import { OutcomeTally } from './helpers/runSummary';
import { markPartlyCarriedOut } from '../../shared/writeOutcomes';

const show = { resource: ['item'], operation: ['update'] };

/** Two properties of one name: n8n's display rules cannot say "approved, or all fields mapped manually" in one. */
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
		displayOptions: { show: where },
	};
}

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update an item by item ID',
	description:
		'Change the fields of the item with the given item ID (an approved item takes only a new address or a lower quantity)',
};

export const fields: INodeProperties[] = [
	...updateDisplayOptions({ show }, [
		itemIdField({ fieldsToSend: ['all'], fieldMapping: ['manual'] }),
		itemIdField({ fieldsToSend: ['approved'] }),
		{
			displayName: 'Fields to Send',
			name: 'fieldsToSend',
			type: 'options',
			default: 'all',
			description: 'What the item can still take depends on its validation status',
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
		},
	]),
	...fieldMappingProperties('update', { fieldsToSend: ['all'] }),
	...itemInputFields(['update'], { fieldsToSend: ['all'] }),
	...approvedItemFields(['update'], { fieldsToSend: ['approved'] }),
];

interface ItemPatch {
	itemIndex: number;
	itemId: string;
	path: string;
	body: IDataObject;
	approved: boolean;
}

function readPatch(context: IExecuteFunctions, itemIndex: number): ItemPatch {
	const read = readerForItem(context, itemIndex);
	let rawId: unknown;
	let path: string;
	try {
		rawId = readItemIdToUpdate(read);
		path = apiPaths.item(rawId as string);
	} catch (error) {
		throw inputError(context.getNode(), itemIndex, `Item ID (item_id) ${(error as Error).message}`);
	}
	const approved = read('fieldsToSend', 'all') === 'approved';
	let body: unknown;
	try {
		body = approved ? readApprovedItemPatch(read, itemIndex) : readItemUpdateInput(read, itemIndex);
	} catch (error) {
		throw refusedInput(context.getNode(), itemIndex, error);
	}
	return { itemIndex, itemId: String(rawId).trim(), path, body: body as IDataObject, approved };
}

/**
 * Two requests, the address first: the contract changes an approved item's quantity only by a decrease, which the
 * node cannot check (the service does not show it), and a refused quantity must not take the address with it.
 */
function requestBodies(patch: ItemPatch): IDataObject[] {
	const { quantity, ...rest } = patch.body;
	return patch.approved && quantity !== undefined && rest.address_id !== undefined ? [rest, { quantity }] : [patch.body];
}

/** The service's 200 does not tell whether it applied the quantity. */
const APPROVED_QUANTITY_NOTE =
	'Sent. An approved item takes a quantity only when it is lower than its current one (an increase is not applied), and the service does not show that quantity: check the item if the quantity may have been an increase';

async function sendPatch(context: IExecuteFunctions, patch: ItemPatch, stop: AbortSignal): Promise<IDataObject> {
	const bodies = requestBodies(patch);
	let answer: unknown;
	for (const [position, body] of bodies.entries()) {
		try {
			answer = (await apiRequest(context, { method: 'PATCH', url: patch.path, body, signal: stop })).body;
		} catch (error) {
			const mapped = toNodeApiError(context.getNode(), error, { itemIndex: patch.itemIndex, subject: { kind: 'item', id: patch.itemId } });
			if (position > 0) {
				// The address request succeeded; what became of the quantity is what the error below says.
				mapped.description = `address_id ${String(patch.body.address_id)} was applied (an earlier request); this error is the quantity ${String(patch.body.quantity)}'s request. ${mapped.description ?? ''}`.trim();
				markPartlyCarriedOut(mapped);
			}
			throw mapped;
		}
	}
	const json = answerJson(answer);
	return patch.approved && patch.body.quantity !== undefined ? { ...json, quantityNote: APPROVED_QUANTITY_NOTE } : json;
}

/** No request at all: Update reads nothing to find its items. */
function previewUpdate(context: IExecuteFunctions, count: number, tally: OutcomeTally): INodeExecutionData[][] {
	const output = Array.from({ length: count }, (_, itemIndex): INodeExecutionData => {
		let patch: ItemPatch;
		try {
			patch = readPatch(context, itemIndex);
		} catch (error) {
			tally.add('invalid');
			return { json: { preview: 'invalid', ...errorItemOf(error, itemIndex).json }, pairedItem: { item: itemIndex } };
		}
		tally.add('would update');
		const fields = Object.keys(patch.body).filter((field) => field !== 'vendor_sku');
		// Update reads no listing, so what differs from the item is not known here.
		const json = { preview: 'would update', item_id: patch.itemId, fields, requests: requestBodies(patch).length, amounts: amountsOf(patch.body) };
		return { json, pairedItem: { item: itemIndex } };
	});
	tally.show(context, true);
	return [output];
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const count = this.getInputData().length;
	const tally = new OutcomeTally();
	if (isPreview(this)) return previewUpdate(this, count, tally);
	const output = await runPerItem(this, {
		read: readPatch,
		send: async (context, patch, _itemIndex, stop) => await sendPatch(context, patch, stop),
		writes: true,
		onOutcome: (outcome) => tally.add(outcome === 'sent' ? 'updated' : outcome),
	});
	tally.show(this, false);
	return output;
}
