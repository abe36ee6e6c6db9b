/**
 * What happens to one Create or Update row, decided before the batches: found by SKU (in the listings read once, or
 * looked up), then updated, left unchanged, held back by the account's ledger, refused, or handed to the creations.
 * Approved items get only what the service applies (address_id, and a quantity decrease when the service showed the
 * current quantity, which its approved listing does not); the other fields are listed under `ignoredFields`.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiPaths } from '../../../../shared/apiPaths';
import { toNodeApiError } from '../../../../shared/errors';
import { apiRequest } from '../../../../shared/transport';
import { validationFailure } from '../helpers/batchFailures';
import type { Row } from '../helpers/batchRunner';
import { InputValidationError, type ApprovedItemPatch, type ItemPayload } from '../../../shared/schemas';
import { amountsOf, comparedWithListing } from '../helpers/itemPreview';
import { awaitingOutcome } from '../helpers/ledgeredCreations';
import { AmbiguousSkuError, type InputSkus } from '../helpers/skuText';
import type { SubmissionLedger } from '../helpers/submissionLedger';
import type { ItemCatalog } from './itemCatalog';
import type { findItemBySku, FoundItem } from './itemLookup';
import { unchangedResult, type Outcome } from './rowOutcomes';

/**
 * What deciding a row is given by the operation (upsert.ts wires them), so that this file reaches down only: how a
 * SKU's item is found (itemLookup.ts), and the consignment a new item goes to (helpers/itemCreations.ts).
 */
export interface RowDecisionParts {
	find: typeof findItemBySku;
	/** Throws InputValidationError when the row's consignment is not valid: the row fails, the others go on. */
	consignmentIdOf(context: IExecuteFunctions, itemIndex: number): string;
}

/** Under Preview Only, the PATCH a real run would send to a found item: the fields it would send, and which differ. */
function wouldUpdate(body: IDataObject, comparison: Comparison, json: IDataObject): Outcome {
	const fields = Object.keys(body).filter((field) => field !== 'vendor_sku');
	return {
		ok: 'noRequest',
		outcome: 'would update',
		json: { ...json, preview: 'would update', fields, ...comparison, amounts: amountsOf(body) },
	};
}

type Comparison = ReturnType<typeof comparedWithListing>;

/**
 * Nothing to send: the listing shows every value the PATCH would carry, and the fields it does not show are what this
 * node last sent and the service confirmed (Only Send What Changed's memory vouches for the row).
 */
const alreadyThere = ({ differs, notShown }: Comparison, memoryVouches: boolean) => differs.length === 0 && (notShown.length === 0 || memoryVouches);

function failure(itemIndex: number, payload: ItemPayload, messages: string[], description?: string): Outcome {
	return { ok: false, failure: { itemIndex, vendorSku: payload.vendor_sku, messages, description } };
}

async function patch(context: IExecuteFunctions, found: FoundItem, body: IDataObject): Promise<string> {
	const { body: answer } = await apiRequest(
		context,
		{ method: 'PATCH', url: apiPaths.item(found.itemId), body },
	);
	const status = (answer as IDataObject | undefined)?.status;
	return typeof status === 'string' ? status : 'updated';
}

export interface RowMemory {
	/** This very row was created before (Only Send What Changed). */
	submittedBefore: boolean;
	/** Only Send What Changed confirmed this very row: fields the listings do not show are as it says. */
	memoryVouches: boolean;
	ledger: SubmissionLedger;
	/** The row as a creation would submit it (submissionLedger.ts compares it with what was submitted). */
	fingerprint: string;
	/** When the listings behind `index` began to be read: an item listed since then is looked up again. */
	indexReadAt: number;
}

/** What happens to one row, given the parts the operation wires (upsertRun.ts calls it for every row not skipped). */
export type DecideRow = (
	context: IExecuteFunctions,
	row: Row,
	index: ItemCatalog | undefined,
	memory: RowMemory,
	preview: boolean,
	input?: InputSkus,
) => Promise<Outcome>;

export function rowDecider(parts: RowDecisionParts): DecideRow {
	return async (context, row, index, memory, preview, input) => await decideRow(parts, context, row, index, memory, preview, input);
}

async function decideRow(
	{ find, consignmentIdOf }: RowDecisionParts,
	context: IExecuteFunctions,
	{ itemIndex, payload }: Row,
	index: ItemCatalog | undefined,
	{ submittedBefore, memoryVouches, ledger, fingerprint, indexReadAt }: RowMemory,
	preview: boolean,
	input?: InputSkus,
): Promise<Outcome> {
	let found: FoundItem | undefined;
	try {
		const lookedAt = Date.now();
		found = await find(context, payload.vendor_sku, index, input);
		// Listed since the listings were read or the lookup began (another run's creation, seen by this process): what
		// was read is out of date.
		if (found === undefined && ledger.listedSince(payload.vendor_sku, index === undefined ? lookedAt : indexReadAt)) {
			found = await find(context, payload.vendor_sku, undefined, input);
		}
		if (found === undefined) {
			// Read live: a claim another run made a moment ago holds this row too. The batch claims it (ledgeredCreations.ts).
			const submission = ledger.holding(payload.vendor_sku);
			if (submission) return awaitingOutcome(payload.vendor_sku, submission, preview);
			if (payload.quantity < 1) {
				return failure(itemIndex, payload, [`quantity must be at least 1 to create an item (no item has vendor_sku ${payload.vendor_sku}), got ${payload.quantity}`]);
			}
			return { batch: { itemIndex, consignmentId: consignmentIdOf(context, itemIndex), payload } };
		}
		const submitted = ledger.submitted(payload.vendor_sku);
		if (!preview) ledger.listed(payload.vendor_sku);
		// This very row was submitted (or created before, Only Send What Changed) and the service now shows the item:
		// nothing changed since, nothing to send.
		const sameAsSubmitted = submittedBefore || (submitted !== undefined && submitted.fingerprint === fingerprint);
		// ...as long as the listing shows nothing else: another write or the portal may have changed the item since.
		const listedAsSent = comparedWithListing(payload as unknown as IDataObject, found.listed).differs.length === 0;
		if (sameAsSubmitted && listedAsSent && found.validationStatus !== 'deleted') return { ok: 'shown' };
		const base = { operation: 'updated', item_id: found.itemId, validation_status: found.validationStatus };
		if (found.validationStatus !== 'approved') {
			// vendor_sku must stay the same: send it as the service spells it (its filter ignores case).
			const body = { ...payload, vendor_sku: found.vendorSku } as unknown as IDataObject;
			const comparison = comparedWithListing(body, found.listed);
			// A deleted item is not there for the buyer, whatever its listed values.
			if (found.validationStatus !== 'deleted' && alreadyThere(comparison, memoryVouches)) return unchangedResult(found.vendorSku, preview, found.itemId);
			if (preview) return wouldUpdate(body, comparison, { ...base, vendor_sku: found.vendorSku });
			const status = await patch(context, found, body);
			return { ok: true, json: { ...base, status, ...body, ignoredFields: [] } };
		}
		const { patch: allowed, ignoredFields, quantityNotSent } = approvedItemPart(payload, found.quantity);
		// Nothing the approved item would take: no request (a PATCH could only be ignored or refused).
		const sent = Object.keys(allowed).length > 0;
		const notes = { ignoredFields, ...(quantityNotSent ? { quantityNotSent } : {}) };
		const comparison = comparedWithListing(allowed, found.listed);
		if (sent && alreadyThere(comparison, memoryVouches)) return unchangedResult(found.vendorSku, preview, found.itemId);
		if (preview && sent) return wouldUpdate(allowed, comparison, { ...base, vendor_sku: found.vendorSku, ...notes });
		const status = sent ? await patch(context, found, allowed) : 'not applied';
		return {
			ok: true,
			json: {
				...base,
				...(sent ? {} : { operation: 'not applied' }),
				status,
				vendor_sku: found.vendorSku,
				...allowed,
				...notes,
				...(preview ? { preview: 'not applied' } : {}),
			},
		};
	} catch (error) {
		if (error instanceof InputValidationError) return { ok: false, failure: validationFailure(error, payload.vendor_sku) };
		if (error instanceof AmbiguousSkuError) return failure(itemIndex, payload, [error.explained], error.advice);
		const mapped = toNodeApiError(context.getNode(), error, {
			itemIndex,
			subject: found ? { kind: 'item', id: found.itemId } : undefined,
		});
		return failure(itemIndex, payload, [mapped.message], mapped.description ?? undefined);
	}
}

/**
 * The contract changes an approved item's quantity only by a decrease, and its approved listing does not show the
 * quantity: an unknown current one could make the PATCH an increase, ignored or refused (a refusal would drop the
 * address change of the same request).
 */
function quantityNotSent(quantity: number, currentQuantity: number | undefined): string | undefined {
	if (currentQuantity === undefined) {
		return `quantity ${quantity} was not sent: an approved item takes only a quantity decrease, and the service does not show this item's current quantity. To decrease it, use Item → Update with Fields to Send → Address and Quantity Only`;
	}
	if (quantity > currentQuantity) {
		return `quantity ${quantity} was not sent: an approved item's quantity can only be decreased, and it is ${currentQuantity}`;
	}
	return undefined;
}

/** Every other field given is listed as ignored, so the output tells which values did not reach the item. */
export function approvedItemPart(
	payload: ItemPayload,
	currentQuantity: number | undefined,
): { patch: ApprovedItemPatch; ignoredFields: string[]; quantityNotSent?: string } {
	const patch: ApprovedItemPatch = {};
	const ignoredFields: string[] = [];
	let notSent: string | undefined;
	for (const field of Object.keys(payload) as Array<keyof ItemPayload>) {
		if (field === 'vendor_sku') continue;
		if (field === 'address_id') patch.address_id = payload.address_id;
		else if (field === 'quantity') {
			notSent = quantityNotSent(payload.quantity, currentQuantity);
			if (notSent) ignoredFields.push(field);
			else if (payload.quantity !== currentQuantity) patch.quantity = payload.quantity;
		} else ignoredFields.push(field);
	}
	return { patch, ignoredFields, ...(notSent ? { quantityNotSent: notSent } : {}) };
}
