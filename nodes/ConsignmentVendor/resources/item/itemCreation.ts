/**
 * Batched item creation, shared by Create and Upsert: every item of one execution goes out together,
 * grouped by consignment, at most 500 per POST /v1/consignments/{consignment_id}/items (the contract's
 * limit; more is a 413). So 1,001 items for one consignment are 3 requests, and two consignments are never
 * mixed in one request. Requests are sent one after another: there are few, and the order stays readable.
 *
 * The answer is mapped back to the input items:
 * - 200 `{}`: every item of the batch was submitted (the item_id arrives later, by webhook);
 * - 207 `{error: [{message, vendor_sku}]}`: an error goes to the batch's item(s) with that vendor_sku; one
 *   with a null (or unknown) vendor_sku goes to every item of the batch; the other items were submitted;
 * - any other failure (413, 401 after token refresh, 5xx, network): every item of the batch failed with it.
 *   A 429 (or a 503 with Retry-After) was retried first (shared/transport); any other 5xx or a broken
 *   connection is not, because the batch may have been created: those items say the outcome is unknown.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { toNodeApiError } from '../../../shared/errors';
import { apiRequest, retryOutcomeOf } from '../../../shared/transport';
import { paceSettingsOfNode } from '../../shared/requestOptions';
import type { ItemPayload } from '../../shared/schemas';
import type { ItemResult } from './itemOutputs';
import { itemPaths } from './itemPaths';

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

function reportedErrors(body: unknown): ReportedError[] | undefined {
	const list = (body as IDataObject | undefined)?.error;
	if (!Array.isArray(list)) return undefined;
	return list.map((entry) => {
		const object = (entry ?? {}) as IDataObject;
		return {
			message: typeof object.message === 'string' && object.message ? object.message : JSON.stringify(entry),
			vendorSku: typeof object.vendor_sku === 'string' && object.vendor_sku !== '' ? object.vendor_sku : null,
		};
	});
}

/** The batch items a 207 error belongs to: same SKU (exactly, else ignoring case), or all when it names none. */
function owners(batch: PendingCreation[], error: ReportedError): PendingCreation[] {
	if (error.vendorSku === null) return batch;
	const exact = batch.filter((entry) => entry.payload.vendor_sku === error.vendorSku);
	if (exact.length) return exact;
	const sku = error.vendorSku.toLowerCase();
	const loose = batch.filter((entry) => entry.payload.vendor_sku.toLowerCase() === sku);
	return loose.length ? loose : batch;
}

function submitted(entry: PendingCreation): ItemResult {
	return { ok: true, json: { status: 'submitted', consignment_id: entry.consignmentId, ...entry.payload } };
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

async function submitBatch(context: IExecuteFunctions, batch: PendingCreation[]): Promise<Map<number, ItemResult>> {
	const results = new Map<number, ItemResult>();
	const consignmentId = batch[0].consignmentId;
	let response;
	try {
		response = await apiRequest(
			context,
			{
				method: 'POST',
				url: itemPaths.createInConsignment(consignmentId),
				body: { items: batch.map((entry) => entry.payload) as unknown as IDataObject[] },
			},
			paceSettingsOfNode(context),
		);
	} catch (error) {
		const mapped = toNodeApiError(context.getNode(), error, {
			itemIndex: batch[0].itemIndex,
			subject: { kind: 'consignment', id: consignmentId },
		});
		// A 5xx or broken connection on the POST is not retried (shared/transport): the batch may exist.
		const outcomeUnknown = retryOutcomeOf(error)?.outcomeUnknown === true;
		for (const entry of batch) {
			results.set(entry.itemIndex, failed(entry, [mapped.message], mapped.description ?? undefined, outcomeUnknown));
		}
		return results;
	}

	if (response.statusCode !== 207) {
		for (const entry of batch) results.set(entry.itemIndex, submitted(entry));
		return results;
	}
	const errors = reportedErrors(response.body);
	if (errors === undefined || errors.length === 0) {
		// A 207 says something failed; without a list there is no telling what, so nothing is called a success.
		const said = JSON.stringify(response.body ?? null).slice(0, 300);
		for (const entry of batch) {
			results.set(entry.itemIndex, failed(entry, [`the service reported a partial failure (HTTP 207) without saying which items: ${said}`]));
		}
		return results;
	}
	const messagesByIndex = new Map<number, string[]>();
	for (const error of errors) {
		for (const entry of owners(batch, error)) {
			const messages = messagesByIndex.get(entry.itemIndex);
			if (messages) messages.push(error.message);
			else messagesByIndex.set(entry.itemIndex, [error.message]);
		}
	}
	for (const entry of batch) {
		const messages = messagesByIndex.get(entry.itemIndex);
		results.set(entry.itemIndex, messages ? failed(entry, messages) : submitted(entry));
	}
	return results;
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
