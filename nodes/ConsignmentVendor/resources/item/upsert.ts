/**
 * Item → Create or Update (upsert by vendor_sku), on the batched runner. The vendor's two listings are read once when
 * cheaper than a lookup per row (helpers/itemCatalog.ts); other rows are looked up (the API has no "get by SKU in any
 * status"): non-approved, then approved; found → a PATCH, else the row joins Create's batched creation.
 * Approved items get only what the service applies (address_id, and a quantity decrease when the service showed the
 * current quantity, which its approved listing does not); the other fields are listed under `ignoredFields`.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { apiPaths } from '../../../shared/apiPaths';
import { toNodeApiError } from '../../../shared/errors';
import { apiRequest, requestSettingsOf } from '../../../shared/transport';
import { validationFailure } from '../../shared/batchFailures';
import { runBatched, type Row, type RowResult } from '../../shared/batchRunner';
import { mapConcurrently } from '../../shared/concurrency';
import { consignmentLocator } from '../../shared/resourceLocators';
import { InputValidationError, type ItemPayload } from '../../shared/schemas';
import { creations, readConsignmentId, type PendingCreation } from './create';
import { readItemCatalog, shownSkus, type ItemCatalog } from './helpers/itemCatalog';
import { itemInputFields } from './helpers/itemFields';
import { fieldMappingProperties } from './helpers/itemMapping';
import { AmbiguousSkuError, findItemBySku, type FoundItem } from './helpers/itemLookup';
import { approvedItemPart, enteredVendorSku, readerForItem, readItemUpdateInput } from './helpers/itemPayload';
import { amountsOf, comparedWithListing, isPreview, LISTED_FIELDS } from './helpers/itemPreview';
import { awaitingOutcome, ledgeredCreations, readSendAgain, sendAgainField } from './helpers/ledgeredCreations';
import { DEFAULT_LISTED_WITHIN_HOURS, SubmissionLedger } from './helpers/submissionLedger';
import { fingerprintOf, SentMemory } from './helpers/sentMemory';
import { missingItemsFields } from './helpers/missingItemsFields';
import { MissingItemsRun } from './helpers/missingItemsRun';
import { missingItemsInError } from './helpers/missingItemsWrite';
import { serviceKeyOf } from '../../shared/listOperation';
import { InputSkus } from './helpers/skuText';

/**
 * What the 6-hour check can see is what the listings show: the hint names those fields from the one list that the
 * comparison uses, and says what happens to the others.
 */
export const ONLY_CHANGED_HINT = `A change made outside this workflow to an item's ${Object.values(LISTED_FIELDS).join(', ')} is corrected at the next check, at most 6 hours later. The fields the listings do not show (MSRP, images, gender, attributes, address) are trusted as last sent: turn on Forget What Was Sent for one run to send them again`;

export const option: INodePropertyOptions = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update an item in a consignment by vendor SKU',
	description: 'Create a new item in a consignment, matched by its vendor SKU, or update the current one if it already exists (upsert)',
};

/**
 * From 1.3 new nodes have Only Send What Changed on: a scheduled sync of an unchanged sheet then sends nothing, where
 * off it PATCHes every non-approved row on every run (the listings cannot show that their other fields are as sent).
 */
export const ONLY_CHANGED_BY_DEFAULT_FROM = 1.3;

type Versions = NonNullable<NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>['@version']>;

function onlySendWhatChanged(on: boolean, versions: Versions): INodeProperties {
	return {
		displayName: 'Only Send What Changed',
		name: 'onlySendWhatChanged',
		type: 'boolean',
		default: on,
		description:
			'Whether to skip rows identical to what this node last sent successfully for their Vendor SKU, once the service shows the item (no request at all; the output says "unchanged"). A new item is skipped only after the listings show it, so one the service refused later is sent again. Every 6 hours a run checks the skipped rows against the listings, so an item deleted at the service is sent again. The memory is kept in the workflow and updated by production runs, not by manual test runs.',
		hint: ONLY_CHANGED_HINT,
		displayOptions: { show: { '@version': versions } },
	};
}

export const fields: INodeProperties[] = [
	...updateDisplayOptions({ show: { resource: ['item'], operation: ['upsert'] } }, [
		consignmentLocator({
			description: 'Consignment a new item is created in when no item has its Vendor SKU',
			show: { resource: ['item'], operation: ['upsert'] },
		}),
		{
			displayName:
				'Finds the item by Vendor SKU among non-approved and approved items: updates it when found, creates it otherwise. Approved items get only the address: the service does not show their quantity, so it is not sent (decrease it with Update); the output lists the fields not applied. New items get their item_id later by webhook.',
			name: 'upsertNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'New Items Listed Within (Hours)',
			name: 'newItemsListedWithin',
			type: 'number',
			default: DEFAULT_LISTED_WITHIN_HOURS,
			typeOptions: { minValue: 0, numberPrecision: 2 },
			description:
				'How long the service may take to list an item after accepting it. Until the listings show an item submitted on this account (by this node, another node or another workflow, or with an unknown outcome), its row is not sent again, so a run that comes sooner never creates it twice; the output says "awaiting the service". Each submission keeps the window it was sent with.',
			hint: 'Set 0 only if the service lists new items at once. To send a row the service refused after accepting it (invalid_item_upload), use Send Again',
		},
		sendAgainField('upsert'),
		// Off for nodes saved before 1.3 (n8n does not store a parameter left at its default), on for new ones.
		onlySendWhatChanged(false, [{ _cnd: { lt: ONLY_CHANGED_BY_DEFAULT_FROM } }]),
		onlySendWhatChanged(true, [{ _cnd: { gte: ONLY_CHANGED_BY_DEFAULT_FROM } }]),
		{
			displayName: 'Forget What Was Sent',
			name: 'forgetWhatWasSent',
			type: 'boolean',
			default: false,
			description: 'Whether to empty the memory first, so every row is sent (and remembered again)',
			hint: 'Turn on for one production run, then off again',
			displayOptions: { show: { onlySendWhatChanged: [true] } },
		},
		...missingItemsFields,
	]),
	...fieldMappingProperties('upsert'),
	...itemInputFields(['upsert']),
];

/**
 * `shown`: the row is a creation remembered as submitted, and the service now shows the item (sentMemory.ts);
 * `noRequest`: a preview's verdict (itemPreview.ts).
 */
type Outcome = RowResult | { batch: PendingCreation } | { ok: 'shown' };

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

interface RowMemory {
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

async function upsertOne(
	context: IExecuteFunctions,
	{ itemIndex, payload }: Row,
	index: ItemCatalog | undefined,
	{ submittedBefore, memoryVouches, ledger, fingerprint, indexReadAt }: RowMemory,
	preview: boolean,
	input?: InputSkus,
): Promise<Outcome> {
	let found: FoundItem | undefined;
	try {
		found = await findItemBySku(context, payload.vendor_sku, index, input);
		// Listed since the listings were read (another run's creation, seen by this process): those listings are out of date.
		if (found === undefined && index !== undefined && ledger.listedSince(payload.vendor_sku, indexReadAt)) {
			found = await findItemBySku(context, payload.vendor_sku, undefined, input);
		}
		if (found === undefined) {
			// Read live: a claim another run made a moment ago holds this row too. The batch claims it (ledgeredCreations.ts).
			const submission = ledger.holding(payload.vendor_sku);
			if (submission) return awaitingOutcome(payload.vendor_sku, submission, preview);
			if (payload.quantity < 1) {
				return failure(itemIndex, payload, [`quantity must be at least 1 to create an item (no item has vendor_sku ${payload.vendor_sku}), got ${payload.quantity}`]);
			}
			return { batch: { itemIndex, consignmentId: readConsignmentId(context, itemIndex), payload } };
		}
		const submitted = ledger.submitted(payload.vendor_sku);
		if (!preview) ledger.listed(payload.vendor_sku);
		// This very row was submitted (or created before, Only Send What Changed) and the service now shows the item:
		// nothing changed since, nothing to send.
		const sameAsSubmitted = submittedBefore || (submitted !== undefined && submitted.fingerprint === fingerprint);
		if (sameAsSubmitted && found.validationStatus !== 'deleted') return { ok: 'shown' };
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

const unchangedResult = (vendorSku: string, preview: boolean, itemId?: string | number): RowResult => ({
	ok: 'noRequest',
	outcome: 'unchanged',
	json: {
		operation: 'unchanged',
		status: 'unchanged',
		...(itemId === undefined ? {} : { item_id: itemId }),
		vendor_sku: vendorSku,
		...(preview ? { preview: 'unchanged' } : {}),
	},
});

/** The consignment a new item of this row would go to, for its fingerprint; undefined when it cannot be read. */
function consignmentOf(context: IExecuteFunctions, itemIndex: number): string | undefined {
	try {
		return readConsignmentId(context, itemIndex);
	} catch (error) {
		if (error instanceof InputValidationError) return undefined; // reported if the row is created
		throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	}
}

/** New Items Listed Within, in ms: how long this run's submissions hold their rows back (submissionLedger.ts). */
function listingWindowMs(context: IExecuteFunctions): number {
	return Math.max(0, Number(context.getNodeParameter('newItemsListedWithin', 0, DEFAULT_LISTED_WITHIN_HOURS)) || 0) * 3_600_000;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// Missing items (Report Them / Set Their Quantity to 0): undefined for Leave Them. Hooks marked "missing items".
	const missing = MissingItemsRun.of(this);
	const preview = isPreview(this);
	if (missing && MissingItemsRun.isEmptySource(this)) return await missing.runWithoutRows(this, preview);
	const windowMs = listingWindowMs(this);
	// A preview reads the ledger (what would wait) and changes nothing in it.
	const ledger = SubmissionLedger.open(this, await serviceKeyOf(this), {
		sendAgain: preview ? [] : readSendAgain(this.getNodeParameter('sendAgain', 0, '')),
		legacyWindowMs: windowMs,
	});
	let memory: SentMemory | undefined;
	const fingerprints = new Map<number, string>();
	const remember = (item: Row, result: RowResult, created: boolean) => {
		if (result.ok === 'noRequest' || !memory) return;
		const sku = item.payload.vendor_sku;
		const fingerprint = fingerprints.get(item.itemIndex)!;
		// Only what the service accepted is remembered, and a creation as submitted only: it is not a reason to
		// skip the row until the service shows the item.
		if (!result.ok || result.unconfirmed) memory.forget(sku);
		else if (created) memory.rememberSubmitted(sku, fingerprint);
		else memory.rememberConfirmed(sku, fingerprint);
	};

	const settle = async (context: IExecuteFunctions, rows: Row[]) => {
		memory = (context.getNodeParameter('onlySendWhatChanged', 0, false) as boolean)
			? SentMemory.of(context, context.getNodeParameter('forgetWhatWasSent', 0, false) as boolean)
			: undefined;
		for (const { itemIndex, payload } of rows) fingerprints.set(itemIndex, fingerprintOf(payload, consignmentOf(context, itemIndex)));
		const confirmedAsIs = ({ itemIndex, payload }: Row) => memory?.unchanged(payload.vendor_sku, fingerprints.get(itemIndex)!) === true;
		// Now and then the rows the memory would skip are checked against the service too (a deleted item is sent again).
		const verifying = memory?.verificationDue() === true;
		const isUnchanged = (row: Row) => !verifying && confirmedAsIs(row);
		missing?.takeInput(context, rows); // missing items
		const indexReadAt = Date.now();
		// Missing items: the listings read in full and the guard checked here, before the first write.
		// Reading the vendor's listings once, when cheaper than looking every row up (itemCatalog.ts).
		const index = missing ? await missing.decide(context, preview) : await readItemCatalog(context, rows.filter((row) => !isUnchanged(row)).length);
		// Listings read in full settle the memory: created items they show are confirmed, SKUs they do not show dropped.
		const shown = shownSkus(index);
		if (memory && shown) memory.reconcile(shown);
		// Rows whose fingerprint matches what the service confirmed are not sent. The others: as many rows at once as
		// the queue lets requests run (the transport paces them for the service).
		const { maxConcurrent } = requestSettingsOf(context);
		// Every SKU of the input (the mirror's: refused rows' too): a listed number several rows could be is refused for each.
		const input = missing?.inputSkus ?? new InputSkus(rows.map((row) => row.payload.vendor_sku));
		const outcomes = await mapConcurrently(rows, maxConcurrent, async (row): Promise<Outcome> => {
			if (isUnchanged(row)) return unchangedResult(row.payload.vendor_sku, preview);
			const rowMemory: RowMemory = {
				submittedBefore: memory?.submitted(row.payload.vendor_sku, fingerprints.get(row.itemIndex)!) === true,
				memoryVouches: confirmedAsIs(row),
				ledger,
				fingerprint: fingerprints.get(row.itemIndex)!,
				indexReadAt,
			};
			return await upsertOne(context, row, index, rowMemory, preview, input);
		});
		if (verifying && !preview) memory?.markVerified();
		// In input order: the memory keeps the most recently sent SKUs.
		return outcomes.map((outcome, position): RowResult | { batch: PendingCreation } => {
			const row = rows[position];
			if ('batch' in outcome) return outcome;
			if (outcome.ok === 'shown') {
				memory?.confirm(row.payload.vendor_sku);
				return unchangedResult(row.payload.vendor_sku, preview);
			}
			if (!preview) remember(row, outcome, false);
			return outcome;
		});
	};

	const submissions = ledgeredCreations(creations, ledger, windowMs, (row) => fingerprints.get(row.itemIndex));
	try {
		return await runBatched<Row, PendingCreation>(
			this,
			{
				enteredSku: (context, itemIndex) => enteredVendorSku(readerForItem(context, itemIndex)),
				read: (context, itemIndex) => ({ itemIndex, payload: readItemUpdateInput(readerForItem(context, itemIndex), itemIndex) }),
				settle,
				batch: {
					...submissions,
					send: async (context, rows) => {
						const results = await submissions.send(context, rows);
						const rowAt = new Map(rows.map((row) => [row.itemIndex, row]));
						for (const [itemIndex, result] of results) {
							if (result.ok === true) results.set(itemIndex, { ...result, json: { operation: 'created', ...result.json } });
							remember(rowAt.get(itemIndex)!, result, true);
						}
						return results;
					},
				},
				// A preview leaves the memory as it was.
				finish: () => memory?.save(),
				extraOutputs: async () => {
					if (!missing) return undefined;
					const outputs = await missing.outputs(this, preview);
					return { outputs, inError: missingItemsInError(outputs) };
				},
			},
			preview,
		);
	} finally {
		// Saved even when the node stops on a failed row: what it submitted must hold the next run back.
		if (!preview) ledger.save();
	}
}
