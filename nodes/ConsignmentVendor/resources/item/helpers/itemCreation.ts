/**
 * Batched item creation, shared by Create and Upsert: every item of one execution goes out together,
 * grouped by consignment, at most 500 per POST /v1/consignments/{consignment_id}/items (the contract's
 * limit; more is a 413). So 1,001 items for one consignment are 3 requests, and two consignments are never
 * mixed in one request. Requests are sent one after another: there are few, and the order stays readable.
 *
 * The answer is mapped back to the input items, one result each:
 * - 200 `{}`: every item of the batch was submitted (the item_id arrives later, by webhook);
 * - 207 `{error: [{message, vendor_sku}]}`: an item fails only when an error names its vendor_sku (by its text, a
 *   number `12345` naming "12345" too; exactly, else ignoring case). An error the batch cannot be tied to (vendor_sku null, or a SKU that was not sent), or a 207
 *   without a usable error list, proves no particular item failed, and the service most likely created the others:
 *   the items no error names are then "submitted, result not confirmed by the service" (status `unconfirmed`), so
 *   nobody re-sends items that probably exist. Without such an error, the items not named were submitted;
 * - any other failure (413, 401 after token refresh, 5xx, network): every item of the batch failed with it.
 *   A 429 (or a 503 with Retry-After) was retried first (shared/transport); any other 5xx, a broken
 *   connection or a timeout is not, because the batch may have been created: those items say the outcome is unknown.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { outcomeIsUnknown, toNodeApiError } from '../../../../shared/errors';
import { apiRequest } from '../../../../shared/transport';
import { paceSettingsOfNode } from '../../../shared/requestOptions';
import type { ItemPayload } from '../../../shared/schemas';
import type { ItemResult } from './itemOutputs';
import { apiPaths } from '../../../../shared/apiPaths';

/** The contract's limit per creation request; more is a 413. */
const MAX_ITEMS_PER_REQUEST = 500;

export interface PendingCreation {
	itemIndex: number;
	consignmentId: string;
	payload: ItemPayload;
}

/** Batches of at most MAX_ITEMS_PER_REQUEST, grouped by consignment, in order of first appearance. */
function creationBatches(pending: PendingCreation[]): PendingCreation[][] {
	const byConsignment = new Map<string, PendingCreation[]>();
	for (const entry of pending) {
		const group = byConsignment.get(entry.consignmentId);
		if (group) group.push(entry);
		else byConsignment.set(entry.consignmentId, [entry]);
	}
	const batches: PendingCreation[][] = [];
	for (const group of byConsignment.values()) {
		for (let start = 0; start < group.length; start += MAX_ITEMS_PER_REQUEST) {
			batches.push(group.slice(start, start + MAX_ITEMS_PER_REQUEST));
		}
	}
	return batches;
}

interface ReportedError {
	message: string;
	vendorSku: string | null;
}

/**
 * A SKU as text: the contract says the 207 names it as a string, but a service that reads a numeric-looking SKU
 * as a number answers `12345` for the "12345" that was sent; SKUs are compared by their text form.
 */
function skuText(value: unknown): string | null {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The 207's error list, or undefined when it has none to read (not a list, or an empty one). */
function reportedErrors(body: unknown): ReportedError[] | undefined {
	const list = (body as IDataObject | undefined)?.error;
	if (!Array.isArray(list) || list.length === 0) return undefined;
	return list.map((entry) => {
		const object = (entry ?? {}) as IDataObject;
		return {
			message: typeof object.message === 'string' && object.message ? object.message : JSON.stringify(entry),
			vendorSku: skuText(object.vendor_sku),
		};
	});
}

/** The batch item a 207 error names: same SKU exactly, else ignoring case (SKUs in a batch are unique either way). */
function ownerOf(batch: PendingCreation[], error: ReportedError): PendingCreation | undefined {
	if (error.vendorSku === null) return undefined;
	const sku = error.vendorSku;
	const sent = (entry: PendingCreation) => entry.payload.vendor_sku.trim();
	return batch.find((entry) => sent(entry) === sku) ?? batch.find((entry) => sent(entry).toLowerCase() === sku.toLowerCase());
}

function submitted(entry: PendingCreation): ItemResult {
	return { ok: true, json: { status: 'submitted', consignment_id: entry.consignmentId, ...entry.payload } };
}

/** Sent, probably created, but the service's answer does not say so: `why` tells what it said instead. */
function unconfirmed(entry: PendingCreation, why: string): ItemResult {
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

function failed(entry: PendingCreation, messages: string[], description?: string, outcomeUnknown = false): ItemResult {
	return {
		ok: false,
		failure: {
			itemIndex: entry.itemIndex,
			vendorSku: entry.payload.vendor_sku,
			consignmentId: entry.consignmentId,
			messages,
			description,
			...(outcomeUnknown ? { outcomeUnknown } : {}),
		},
	};
}

/**
 * What a 207 leaves unsaid, or undefined when every error it lists names an item of the batch: then the items no
 * error names are confirmed as submitted.
 */
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

/** One result per item of a batch the service answered 207 (see the file comment). */
function mapPartialFailure(batch: PendingCreation[], body: unknown): Map<number, ItemResult> {
	const errors = reportedErrors(body);
	const messagesByIndex = new Map<number, string[]>();
	const unattributed: ReportedError[] = [];
	for (const error of errors ?? []) {
		const owner = ownerOf(batch, error);
		if (owner === undefined) unattributed.push(error);
		else messagesByIndex.set(owner.itemIndex, [...(messagesByIndex.get(owner.itemIndex) ?? []), error.message]);
	}
	const notConfirmed = unattributedPart(body, errors, unattributed);
	const results = new Map<number, ItemResult>();
	for (const entry of batch) {
		const messages = messagesByIndex.get(entry.itemIndex);
		// A failed item keeps what the service said about no item in particular too, so nothing it said is lost.
		const alsoSaid = notConfirmed && errors ? `Besides, ${notConfirmed}` : undefined;
		const result = messages ? failed(entry, messages, alsoSaid) : notConfirmed ? unconfirmed(entry, notConfirmed) : submitted(entry);
		results.set(entry.itemIndex, result);
	}
	return results;
}

async function submitBatch(context: IExecuteFunctions, batch: PendingCreation[]): Promise<Map<number, ItemResult>> {
	const results = new Map<number, ItemResult>();
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
			paceSettingsOfNode(context),
		);
	} catch (error) {
		const mapped = toNodeApiError(context.getNode(), error, {
			itemIndex: batch[0].itemIndex,
			subject: { kind: 'consignment', id: consignmentId },
			method: 'POST',
		});
		// A 5xx, a broken connection or a timeout of the POST is not retried (shared/transport): the batch may exist.
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

/**
 * Creation batches sent while later items are still being read (Create under Continue On Fail: nothing stops the
 * node, so there is no reason to read every item before the first POST). A consignment's batch goes out when it
 * holds MAX_ITEMS_PER_REQUEST items; `finish` sends the rest. Batches go one after another, as in submitCreations.
 */
export class CreationStream {
	private readonly filling = new Map<string, PendingCreation[]>();

	private sending: Promise<void> = Promise.resolve();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly onResult: (itemIndex: number, result: ItemResult) => void,
	) {}

	add(entry: PendingCreation): void {
		const batch = this.filling.get(entry.consignmentId) ?? [];
		batch.push(entry);
		this.filling.set(entry.consignmentId, batch);
		if (batch.length === MAX_ITEMS_PER_REQUEST) {
			this.filling.delete(entry.consignmentId);
			this.send(batch);
		}
	}

	async finish(): Promise<void> {
		for (const batch of this.filling.values()) this.send(batch);
		this.filling.clear();
		await this.sending;
		if (this.failure) throw this.failure.error;
	}

	/** What stopped the batches (submitBatch turns request failures into results: this is a bug's error), for finish. */
	private failure: { error: unknown } | undefined;

	private send(batch: PendingCreation[]): void {
		this.sending = this.sending.then(async () => {
			if (this.failure) return;
			try {
				for (const [itemIndex, result] of await submitBatch(this.context, batch)) this.onResult(itemIndex, result);
			} catch (error) {
				this.failure = { error };
			}
		});
	}
}

/** Sends every pending creation in batches (see the file comment); one result per input item index. */
export async function submitCreations(
	context: IExecuteFunctions,
	pending: PendingCreation[],
): Promise<Map<number, ItemResult>> {
	const results = new Map<number, ItemResult>();
	for (const batch of creationBatches(pending)) {
		for (const [itemIndex, result] of await submitBatch(context, batch)) results.set(itemIndex, result);
	}
	return results;
}
