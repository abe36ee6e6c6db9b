/**
 * The `vendor_sku` filter is exact but ignores case: at most a few records come back, one page. What matches a row is
 * skuText.ts's rule, whatever the filter returned.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../../shared/transport';
import type { ItemCatalog } from './itemCatalog';
import { apiPaths } from '../../../../shared/apiPaths';
import { AmbiguousSkuError, type InputSkus, recordsMatching, skuAsSent, skuFilterForms, skuMatches, skuText } from '../helpers/skuText';

export interface FoundItem {
	itemId: string | number;
	vendorSku: string;
	validationStatus: string;
	/** Known from the non-approved listing; the approved listing does not document it. */
	quantity?: number;
	/** The record the listing showed (what a preview compares a row with). */
	listed: IDataObject;
}

/**
 * The record of the row's SKU among `records`, by skuMatches; the exact spelling first (as the service spells it).
 * `input`: every SKU of the input, so that a listed number no single row can claim is refused.
 */
function pick(records: IDataObject[], vendorSku: string, input?: InputSkus): IDataObject | undefined {
	const matching = records.filter((record) => skuMatches(record.vendor_sku, vendorSku));
	const exact = matching.filter((record) => skuText(record.vendor_sku) === skuText(vendorSku));
	const candidates = exact.length ? exact : matching;
	const ids = [...new Set(candidates.map((record) => String(record.item_id)))];
	if (ids.length > 1) throw new AmbiguousSkuError(vendorSku, ids);
	const found = candidates[0];
	const rows = found && input ? input.rowsMatching(found.vendor_sku) : [];
	if (rows.length > 1) throw new AmbiguousSkuError(vendorSku, ids, rows);
	return found;
}

/** One filtered request per form of the SKU (skuText.ts, skuFilterForms), until one finds the row's item. */
async function findIn(
	context: IExecuteFunctions,
	url: string,
	qs: IDataObject,
	vendorSku: string,
	input?: InputSkus,
): Promise<IDataObject | undefined> {
	for (const form of skuFilterForms(vendorSku)) {
		const { body } = await apiRequest(
			context,
			{ method: 'GET', url, qs: { ...qs, vendor_sku: form } },
		);
		const products = (body as IDataObject | undefined)?.products;
		const found = pick(Array.isArray(products) ? (products as IDataObject[]) : [], vendorSku, input);
		if (found) return found;
	}
	return undefined;
}

function fromRecord(record: IDataObject, validationStatus: string, rowSku: string): FoundItem {
	return {
		itemId: record.item_id as string | number,
		vendorSku: skuAsSent(record.vendor_sku, rowSku),
		validationStatus,
		quantity: typeof record.quantity === 'number' ? record.quantity : undefined,
		listed: record,
	};
}

/** From `index` when it read that listing in full or found the SKU in it; otherwise one filtered request. */
async function recordsOf(
	vendorSku: string,
	listed: { records: Map<string, IDataObject[]>; complete: boolean } | undefined,
	lookup: () => Promise<IDataObject | undefined>,
	input: InputSkus | undefined,
): Promise<IDataObject | undefined> {
	const records = listed ? recordsMatching(listed.records, vendorSku, (record) => record.vendor_sku) : [];
	if (listed?.complete) return pick(records, vendorSku, input);
	if (records.length) {
		const found = pick(records, vendorSku, input);
		if (found && found.item_status !== 'deleted') return found;
	}
	return await lookup();
}

/** Both listings read in full: a row matching a live item in each is as ambiguous as one matching two in one. */
function refuseAcrossListings(vendorSku: string, index: ItemCatalog | undefined, input: InputSkus | undefined): void {
	if (!index?.nonApprovedComplete || !index.approvedComplete) return;
	const listedSku = (record: IDataObject) => record.vendor_sku;
	const live = recordsMatching(index.nonApproved, vendorSku, listedSku).filter((record) => record.item_status !== 'deleted');
	pick([...live, ...recordsMatching(index.approved, vendorSku, listedSku)], vendorSku, input);
}

/**
 * A deleted item is used only when no approved item has the SKU. `input`: every SKU of the run's input, so that a
 * listed number several rows could be refuses each of them (AmbiguousSkuError).
 */
export async function findItemBySku(context: IExecuteFunctions, vendorSku: string, index?: ItemCatalog, input?: InputSkus): Promise<FoundItem | undefined> {
	refuseAcrossListings(vendorSku, index, input);
	const nonApproved = await recordsOf(
		vendorSku,
		index && { records: index.nonApproved, complete: index.nonApprovedComplete },
		async () => await findIn(context, apiPaths.nonApprovedItems, {}, vendorSku, input),
		input,
	);
	const nonApprovedStatus = String(nonApproved?.item_status ?? 'pending');
	if (nonApproved && nonApprovedStatus !== 'deleted') return fromRecord(nonApproved, nonApprovedStatus, vendorSku);
	const approved = await recordsOf(
		vendorSku,
		index && { records: index.approved, complete: index.approvedComplete },
		async () => await findIn(context, apiPaths.items, { validation_status: 'approved' }, vendorSku, input),
		input,
	);
	if (approved) return fromRecord(approved, 'approved', vendorSku);
	return nonApproved ? fromRecord(nonApproved, nonApprovedStatus, vendorSku) : undefined;
}
