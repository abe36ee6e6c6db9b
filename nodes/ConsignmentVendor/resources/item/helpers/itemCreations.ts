/**
 * Sending new items (Item Create, and Create or Update's new items): grouped by consignment, at most 500 per POST (the
 * contract's limit), on the batched runner (batchRunner.ts). Answers, mapped back per item:
 * - 200 `{}`: all submitted (the item_id arrives later, by webhook);
 * - 207 `{error: [{message, vendor_sku}]}`: an item fails only when an error names its SKU. An error tied to no
 *   item of the batch, or no usable error list, proves no particular item failed and the others were most likely
 *   created: those are `unconfirmed`, so nobody re-sends items that probably exist;
 * - any other failure: every item of the batch fails with it. A 5xx, a broken connection or a timeout is not
 *   retried (the batch may have been created): those items say the outcome is unknown.
 * Both operations pass `creations` to the runner themselves, through the account's ledger (ledgeredCreations.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiPaths } from '../../../../shared/apiPaths';
import { outcomeIsUnknown, toNodeApiError } from '../../../../shared/errors';
import { apiRequest } from '../../../../shared/transport';
import { parseConsignmentId } from '../../../shared/schemas';
import type { Batched, Row, RowResult } from './batchRunner';
import { amountsOf } from './itemPreview';
import { skuMatches, skuText } from './skuText';

/** The contract's limit per creation request; more is a 413. */
const MAX_ITEMS_PER_REQUEST = 500;

export interface PendingCreation extends Row {
	consignmentId: string;
}

interface ReportedError {
	message: string;
	vendorSku: string | null;
	/** The SKU as the service sent it (a JSON number shows no leading zeros). */
	sentAs: unknown;
}

function reportedErrors(body: unknown): ReportedError[] | undefined {
	const list = (body as IDataObject | undefined)?.error;
	if (!Array.isArray(list) || list.length === 0) return undefined;
	return list.map((entry) => {
		const object = (entry ?? {}) as IDataObject;
		return {
			message: typeof object.message === 'string' && object.message ? object.message : JSON.stringify(entry),
			vendorSku: skuText(object.vendor_sku),
			sentAs: object.vendor_sku,
		};
	});
}

/**
 * The one item of the batch the error names (skuText.ts's rule), the same spelling first. A number that several items
 * could be (leading zeros) names none of them: the error is then told as not tied to an item, never guessed.
 */
function ownerOf(batch: PendingCreation[], error: ReportedError): PendingCreation | undefined {
	if (error.vendorSku === null) return undefined;
	const matching = batch.filter((entry) => skuMatches(error.sentAs, entry.payload.vendor_sku));
	const exact = matching.filter((entry) => entry.payload.vendor_sku.trim() === error.vendorSku);
	const candidates = exact.length ? exact : matching;
	return candidates.length === 1 ? candidates[0] : undefined;
}

function submitted(entry: PendingCreation): RowResult {
	return { ok: true, json: { status: 'submitted', consignment_id: entry.consignmentId, ...entry.payload } };
}

function unconfirmed(entry: PendingCreation, why: string): RowResult {
	return {
		ok: true,
		unconfirmed: true,
		json: {
			status: 'unconfirmed',
			message: `Submitted, result not confirmed by the service: ${why}. Check this item (Item → Get Many Non-Approved with its Vendor SKU, or the trigger's successful_item_upload / invalid_item_upload event) before sending it again.`,
			consignment_id: entry.consignmentId,
			...entry.payload,
		},
	};
}

function failed(entry: PendingCreation, messages: string[], description?: string, outcomeUnknown = false): RowResult {
	return {
		ok: false,
		failure: {
			itemIndex: entry.itemIndex,
			vendorSku: entry.payload.vendor_sku,
			messages,
			description,
			...(outcomeUnknown ? { outcomeUnknown } : {}),
		},
	};
}

/** Undefined when every error names an item of the batch: the items no error names are then submitted. */
function unattributedPart(body: unknown, errors: ReportedError[] | undefined, unattributed: ReportedError[]): string | undefined {
	if (errors === undefined) {
		return `the service answered HTTP 207 (some items were refused) without a list of which: ${JSON.stringify(body ?? null).slice(0, 300)}`;
	}
	if (unattributed.length === 0) return undefined;
	const said = unattributed
		.map((error) => (error.vendorSku === null ? error.message : `${error.message} (vendor_sku ${error.vendorSku}, not in this request)`))
		.join('; ');
	return `the service answered HTTP 207 with errors it did not tie to an item of this request: ${said}`;
}

function mapPartialFailure(batch: PendingCreation[], body: unknown): Map<number, RowResult> {
	const errors = reportedErrors(body);
	const messagesByIndex = new Map<number, string[]>();
	const unattributed: ReportedError[] = [];
	for (const error of errors ?? []) {
		const owner = ownerOf(batch, error);
		if (owner === undefined) unattributed.push(error);
		else messagesByIndex.set(owner.itemIndex, [...(messagesByIndex.get(owner.itemIndex) ?? []), error.message]);
	}
	const notConfirmed = unattributedPart(body, errors, unattributed);
	const results = new Map<number, RowResult>();
	for (const entry of batch) {
		const messages = messagesByIndex.get(entry.itemIndex);
		// A failed item keeps what the service said about no item in particular too, so nothing it said is lost.
		const alsoSaid = notConfirmed && errors ? `Besides, ${notConfirmed}` : undefined;
		const result = messages ? failed(entry, messages, alsoSaid) : notConfirmed ? unconfirmed(entry, notConfirmed) : submitted(entry);
		results.set(entry.itemIndex, result);
	}
	return results;
}

async function sendCreations(context: IExecuteFunctions, batch: PendingCreation[]): Promise<Map<number, RowResult>> {
	const results = new Map<number, RowResult>();
	const consignmentId = batch[0].consignmentId;
	let response;
	try {
		response = await apiRequest(
			context,
			{
				method: 'POST',
				url: apiPaths.itemsOfConsignment(consignmentId),
				body: { items: batch.map((entry) => entry.payload) as unknown as IDataObject[] },
			},
		);
	} catch (error) {
		const mapped = toNodeApiError(context.getNode(), error, {
			itemIndex: batch[0].itemIndex,
			subject: { kind: 'consignment', id: consignmentId },
			method: 'POST',
		});
		const outcomeUnknown = outcomeIsUnknown(error, 'POST');
		for (const entry of batch) {
			results.set(entry.itemIndex, failed(entry, [mapped.message], mapped.description ?? undefined, outcomeUnknown));
		}
		return results;
	}

	if (response.statusCode !== 207) {
		for (const entry of batch) results.set(entry.itemIndex, submitted(entry));
		return results;
	}
	return mapPartialFailure(batch, response.body);
}

export function readConsignmentId(context: IExecuteFunctions, itemIndex: number): string {
	return parseConsignmentId(context.getNodeParameter('consignmentId', itemIndex, '', { extractValue: true }), itemIndex);
}

export const creations: Batched<PendingCreation> = {
	key: (row) => row.consignmentId,
	size: MAX_ITEMS_PER_REQUEST,
	send: sendCreations,
	preview: ({ payload, consignmentId }) => ({
		ok: 'noRequest',
		outcome: 'would create',
		json: {
			preview: 'would create',
			vendor_sku: payload.vendor_sku,
			consignment_id: consignmentId,
			amounts: amountsOf(payload as unknown as IDataObject),
		},
	}),
};
