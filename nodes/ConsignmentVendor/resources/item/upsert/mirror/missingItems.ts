/**
 * Create or Update as a mirror of its input (Report Them / Set Their Quantity to 0): which listed items no input
 * row has, and the guard. Everything here is decided before the run's first write, from the one catalogue read the
 * operation makes anyway (itemCatalog.ts, read in full in this mode).
 *
 * SKUs are compared by the one rule the rows are found by (skuText.ts): trimmed text ignoring case, and a listed
 * JSON number matches a digit-only row SKU with any leading zeros. So a row "abc-1" keeps the listed "ABC-1", and a
 * row "0073001" the listed 73001; an item that several rows could be is kept too (those rows are refused).
 *
 * The guard counts over the items the run could set to 0: approved items set to 0 stay listed for good (quantity 0
 * cannot be raised), so a share of every listed item would weaken month by month.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { batchingOf } from '../../../../shared/itemRunner';
import type { ItemCatalog } from '../itemCatalog';
import type { InputSkus } from '../../helpers/skuText';
import type { MissingItemsSettings } from './missingItemsFields';
import type { ZeroedItemsMemory } from './zeroedItemsMemory';

/** What the run does with one listed item no input row has. */
export type MissingAction = 'setToZero' | 'report';

export interface MissingItem {
	itemId: string | number;
	vendorSku: string;
	validationStatus: string;
	/** Undefined where the listing shows none (the approved listing never does). */
	quantityBefore: number | undefined;
	action: MissingAction;
	/** Why an item is only reported under Set Their Quantity to 0. */
	reason?: string;
}

export interface MissingItemsPlan {
	/** Items listed in a status other than deleted. */
	listed: number;
	/** The guard's whole: listed items the run could set to 0 (not known to be at 0, not rejected), in the input or not. */
	couldSetToZero: number;
	/** Listed items already at 0 (their listing, or this workflow's memory, says so), deleted or rejected: not counted. */
	notCounted: number;
	/** Every listed item not deleted, for the memory of items set to 0 (dropped once no longer listed). */
	listedIds: Set<string>;
	missing: MissingItem[];
}

export const NOTHING_WRITTEN = 'Nothing was created or changed.';

/** At most this many SKUs are named in the guard's message; its description names up to SAMPLE_IN_DESCRIPTION. */
const SAMPLE_IN_MESSAGE = 10;
const SAMPLE_IN_DESCRIPTION = 100;

const REJECTED_REASON =
	'rejected: not live, and a PATCH would send it back to review (the service moves a rejected item to pending), so it is not set to 0';

function refusal(context: IExecuteFunctions, message: string, advice: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), message, { description: `${NOTHING_WRITTEN} ${advice}` });
}

/**
 * Refuses a run whose input may be part of the source only: items missing from a part would be set to 0 (or reported)
 * though the source has them. Node settings that hand the node part of its input, and rows whose SKU cannot be read.
 */
export function refuseInputThatCannotBeWhole(context: IExecuteFunctions, settings: MissingItemsSettings): void {
	const choice = settings.mode === 'report' ? 'Report Them' : 'Set Their Quantity to 0';
	if (context.getNode().executeOnce === true) {
		throw refusal(context, `"Listed Items Not in the Input" is ${choice}, but the node setting Execute Once passes only the first input item`, 'Turn Execute Once off: the input must be the whole source.');
	}
	if (batchingOf(context) !== undefined) {
		throw refusal(context, `"Listed Items Not in the Input" is ${choice}, but Request Options → Batching is on`, 'Remove Batching from Request Options: the input must be the whole source in one run (the node paces its requests itself).');
	}
}

/**
 * Each listed item once (a listing may show an item as several variant records), deleted ones left out; and how
 * many items are listed as deleted only.
 */
function listedItems(catalog: ItemCatalog): { live: IDataObject[]; deleted: number } {
	const byId = new Map<string, IDataObject>();
	const deletedIds = new Set<string>();
	for (const listing of [catalog.approved, catalog.nonApproved]) {
		for (const records of listing.values()) {
			for (const record of records) {
				if (record.item_id === undefined || record.item_id === null) continue;
				const id = String(record.item_id);
				if (record.item_status === 'deleted') deletedIds.add(id);
				else if (!byId.has(id)) byId.set(id, record);
			}
		}
	}
	return { live: [...byId.values()], deleted: [...deletedIds].filter((id) => !byId.has(id)).length };
}

/** Known to be at 0: the non-approved listing's quantity, or for approved items this workflow's memory. */
function knownAtZero(record: IDataObject, zeroed: ZeroedItemsMemory): boolean {
	if (typeof record.quantity === 'number') return record.quantity <= 0;
	return String(record.item_status ?? 'pending') === 'approved' && zeroed.has(record.item_id);
}

/**
 * The listed items whose SKU is not in `present`, and what to do with each. Left out: items already at 0, known from
 * the non-approved listing's quantity, or for approved items (whose listing shows no quantity) from this
 * workflow's memory of the items it set to 0: an approved item's quantity can only go down, so it stays 0.
 */
export function planMissingItems(catalog: ItemCatalog, present: InputSkus, settings: MissingItemsSettings, zeroed: ZeroedItemsMemory): MissingItemsPlan {
	const { live: listed, deleted } = listedItems(catalog);
	const missing: MissingItem[] = [];
	let couldSetToZero = 0;
	for (const record of listed) {
		const status = String(record.item_status ?? 'pending');
		const atZero = knownAtZero(record, zeroed);
		if (!atZero && status !== 'rejected') couldSetToZero++;
		if (present.has(record.vendor_sku)) continue;
		const quantityBefore = typeof record.quantity === 'number' ? record.quantity : undefined;
		const itemId = record.item_id as string | number;
		if (atZero) continue;
		const item: MissingItem = { itemId, vendorSku: String(record.vendor_sku), validationStatus: status, quantityBefore, action: 'report' };
		if (settings.mode === 'setQuantityToZero') {
			if (status === 'rejected') item.reason = REJECTED_REASON;
			else item.action = 'setToZero';
		}
		missing.push(item);
	}
	return {
		listed: listed.length,
		couldSetToZero,
		notCounted: listed.length - couldSetToZero + deleted,
		listedIds: new Set(listed.map((record) => String(record.item_id))),
		missing,
	};
}

const toZeroOf = (plan: MissingItemsPlan) => plan.missing.filter((item) => item.action === 'setToZero');
const percentOf = (plan: MissingItemsPlan) => (toZeroOf(plan).length * 100) / Math.max(plan.couldSetToZero, 1);
const counted = (n: number) => n.toLocaleString('en-US');

/** What the guard counted, both numbers: "50 of 1,000 items that could be set to 0 (5.0 %) …; 1,800 listed items …". */
export function guardCounts(plan: MissingItemsPlan): string {
	const { couldSetToZero, notCounted } = plan;
	return `${counted(toZeroOf(plan).length)} of ${counted(couldSetToZero)} items that could be set to 0 (${percentOf(plan).toFixed(1)} %); ${counted(notCounted)} listed items are already at 0, deleted or rejected and are not counted`;
}

/** The guard's verdict: undefined when the run may go on, else why it stops. */
export function guardVerdict(plan: MissingItemsPlan, settings: MissingItemsSettings): { message: string; description: string } | undefined {
	if (settings.mode !== 'setQuantityToZero') return undefined;
	const toZero = toZeroOf(plan);
	if (toZero.length === 0) return undefined;
	const percent = percentOf(plan);
	const overCount = toZero.length > settings.maxMissingItems;
	const overShare = percent > settings.maxMissingPercent;
	if (!overCount && !overShare) return undefined;
	const limits = [
		...(overCount ? [`Max Missing Items (${settings.maxMissingItems})`] : []),
		...(overShare ? [`Max Missing Percent (${settings.maxMissingPercent} %)`] : []),
	].join(' and ');
	const skus = toZero.map((item) => item.vendorSku);
	const sample = skus.slice(0, SAMPLE_IN_MESSAGE).join(', ') + (skus.length > SAMPLE_IN_MESSAGE ? `, … (${skus.length - SAMPLE_IN_MESSAGE} more)` : '');
	return {
		message: `Stopped before any write: the run would set ${counted(toZero.length)} of ${counted(plan.couldSetToZero)} items that could be set to 0 (${percent.toFixed(1)} %), more than ${limits}; ${counted(plan.notCounted)} listed items are already at 0, deleted or rejected and are not counted. Vendor SKUs in no input row: ${sample}`,
		description: [
			`${NOTHING_WRITTEN} An empty or partial source (a failed or filtered sheet read, a shop query that returned a page only) would otherwise set these items to 0.`,
			'Check the input; run with Preview Only to list every item that would be set to 0. If they really left the source, raise Max Missing Items or Max Missing Percent for one run.',
			`Vendor SKUs (up to ${SAMPLE_IN_DESCRIPTION}): ${skus.slice(0, SAMPLE_IN_DESCRIPTION).join(', ')}`,
		].join('\n'),
	};
}

export function guardError(context: IExecuteFunctions, verdict: { message: string; description: string }): NodeOperationError {
	return new NodeOperationError(context.getNode(), verdict.message, { description: verdict.description });
}
