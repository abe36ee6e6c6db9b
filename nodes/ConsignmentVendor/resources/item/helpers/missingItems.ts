/**
 * Create or Update as a mirror of its input (Report Them / Set Their Quantity to 0): which listed items no input
 * row has, and the guard. Everything here is decided before the run's first write, from the one catalogue read the
 * operation makes anyway (itemCatalog.ts, read in full in this mode).
 *
 * SKUs are compared as trimmed text, ignoring case: the service may send vendor_sku as a number, its vendor_sku
 * filter ignores case, it refuses a second item whose SKU differs only in case, and a row finds its item ignoring
 * case (itemLookup.ts). So a row "abc-1" keeps the listed "ABC-1": it is the item that row updates.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Row } from '../../../shared/batchRunner';
import { batchingOf } from '../../../shared/itemRunner';
import type { ItemCatalog } from './itemCatalog';
import { skuKey } from './skuText';
import { enteredVendorSku, readerForItem } from './itemPayload';
import type { MissingItemsSettings } from './missingItemsFields';
import type { ZeroedItemsMemory } from './zeroedItemsMemory';

/** A row or record's SKU as the listings are matched on (skuText.ts); '' for none. */
export const mirrorSkuKey = (sku: unknown): string => skuKey(sku) ?? '';

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
	/** Items listed in a status other than deleted (the guard's whole). */
	listed: number;
	missing: MissingItem[];
	/** Every listed item no input row has, those left out of `missing` included (for the memory). */
	missingIds: Set<string>;
}

const NOTHING_WRITTEN = 'Nothing was created or changed.';

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

/** Every SKU the input names: the checked rows', and those of rows refused under Continue On Fail, which still exist. */
export function inputSkus(context: IExecuteFunctions, rows: Row[]): Set<string> {
	const skus = new Set(rows.map((row) => mirrorSkuKey(row.payload.vendor_sku)));
	const checked = new Set(rows.map((row) => row.itemIndex));
	const count = context.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		if (checked.has(itemIndex)) continue;
		let sku: string | undefined;
		try {
			sku = enteredVendorSku(readerForItem(context, itemIndex));
		} catch {
			sku = undefined;
		}
		if (sku === undefined) {
			throw new NodeOperationError(context.getNode(), `Item index ${itemIndex} has no vendor_sku: with "Listed Items Not in the Input" set, every input item must name its SKU, or the listed item of that SKU would count as missing`, {
				itemIndex,
				description: `${NOTHING_WRITTEN} Give the row its vendor_sku or remove it (an empty sheet read that outputs one empty item shows this too).`,
			});
		}
		skus.add(mirrorSkuKey(sku));
	}
	return skus;
}

/** Each listed item once (a listing may show an item as several variant records), deleted ones left out. */
function listedItems(catalog: ItemCatalog): IDataObject[] {
	const byId = new Map<string, IDataObject>();
	for (const listing of [catalog.approved, catalog.nonApproved]) {
		for (const records of listing.values()) {
			for (const record of records) {
				const id = String(record.item_id);
				if (record.item_status !== 'deleted' && record.item_id !== undefined && record.item_id !== null && !byId.has(id)) byId.set(id, record);
			}
		}
	}
	return [...byId.values()];
}

/**
 * The listed items whose SKU is not in `present`, and what to do with each. Left out: items already at 0, known from
 * the non-approved listing's quantity, or for approved items (whose listing shows no quantity) from this
 * workflow's memory of the items it set to 0: an approved item's quantity can only go down, so it stays 0.
 */
export function planMissingItems(catalog: ItemCatalog, present: Set<string>, settings: MissingItemsSettings, zeroed: ZeroedItemsMemory): MissingItemsPlan {
	const listed = listedItems(catalog);
	const missing: MissingItem[] = [];
	const missingIds = new Set<string>();
	for (const record of listed) {
		if (present.has(mirrorSkuKey(record.vendor_sku))) continue;
		missingIds.add(String(record.item_id));
		const status = String(record.item_status ?? 'pending');
		const quantityBefore = typeof record.quantity === 'number' ? record.quantity : undefined;
		const itemId = record.item_id as string | number;
		if (quantityBefore !== undefined && quantityBefore <= 0) continue;
		if (status === 'approved' && zeroed.has(itemId)) continue;
		const item: MissingItem = { itemId, vendorSku: String(record.vendor_sku), validationStatus: status, quantityBefore, action: 'report' };
		if (settings.mode === 'setQuantityToZero') {
			if (status === 'rejected') item.reason = REJECTED_REASON;
			else item.action = 'setToZero';
		}
		missing.push(item);
	}
	return { listed: listed.length, missing, missingIds };
}

/** The guard's verdict: undefined when the run may go on, else why it stops. */
export function guardVerdict(plan: MissingItemsPlan, settings: MissingItemsSettings): { message: string; description: string } | undefined {
	if (settings.mode !== 'setQuantityToZero') return undefined;
	const toZero = plan.missing.filter((item) => item.action === 'setToZero');
	if (toZero.length === 0) return undefined;
	const percent = (toZero.length * 100) / Math.max(plan.listed, 1);
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
		message: `Stopped before any write: ${toZero.length.toLocaleString('en-US')} of ${plan.listed.toLocaleString('en-US')} listed items (${percent.toFixed(1)} %) are in no input row and would be set to 0, more than ${limits}. Vendor SKUs: ${sample}`,
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
