/** The `vendor_sku` filter is exact but ignores case: at most a few records come back, one page. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../../../shared/transport';
import type { ItemCatalog } from './itemCatalog';
import { apiPaths } from '../../../../shared/apiPaths';
import { skuKey, skuText } from './skuText';

export interface FoundItem {
	itemId: string | number;
	vendorSku: string;
	validationStatus: string;
	/** Known from the non-approved listing; the approved listing does not document it. */
	quantity?: number;
	/** The record the listing showed (what a preview compares a row with). */
	listed: IDataObject;
}

/** Thrown when a SKU matches several items: acting on one at random would be wrong. The operation words it. */
export class AmbiguousSkuError extends Error {
	constructor(
		readonly vendorSku: string,
		readonly itemIds: string[],
	) {
		super(`vendor_sku ${vendorSku} matches ${itemIds.length} items (item_id ${itemIds.join(', ')})`);
		this.name = 'AmbiguousSkuError';
	}
}

function pick(records: IDataObject[], vendorSku: string): IDataObject | undefined {
	const sameIgnoringCase = records.filter((record) => skuKey(record.vendor_sku) === skuKey(vendorSku));
	const exact = sameIgnoringCase.filter((record) => skuText(record.vendor_sku) === skuText(vendorSku));
	const candidates = exact.length ? exact : sameIgnoringCase;
	const ids = [...new Set(candidates.map((record) => String(record.item_id)))];
	if (ids.length > 1) throw new AmbiguousSkuError(vendorSku, ids);
	return candidates[0];
}

async function findIn(
	context: IExecuteFunctions,
	url: string,
	qs: IDataObject,
	vendorSku: string,
): Promise<IDataObject | undefined> {
	const { body } = await apiRequest(
		context,
		{ method: 'GET', url, qs: { ...qs, vendor_sku: vendorSku } },
	);
	const products = (body as IDataObject | undefined)?.products;
	return pick(Array.isArray(products) ? (products as IDataObject[]) : [], vendorSku);
}

function fromRecord(record: IDataObject, validationStatus: string): FoundItem {
	return {
		itemId: record.item_id as string | number,
		vendorSku: skuText(record.vendor_sku) ?? String(record.vendor_sku),
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
): Promise<IDataObject | undefined> {
	const records = listed?.records.get(skuKey(vendorSku) ?? '');
	if (listed?.complete) return pick(records ?? [], vendorSku);
	if (records?.length) {
		const found = pick(records, vendorSku);
		if (found && found.item_status !== 'deleted') return found;
	}
	return await lookup();
}

/** A deleted item is used only when no approved item has the SKU. */
export async function findItemBySku(context: IExecuteFunctions, vendorSku: string, index?: ItemCatalog): Promise<FoundItem | undefined> {
	const nonApproved = await recordsOf(
		vendorSku,
		index && { records: index.nonApproved, complete: index.nonApprovedComplete },
		async () => await findIn(context, apiPaths.nonApprovedItems, {}, vendorSku),
	);
	const nonApprovedStatus = String(nonApproved?.item_status ?? 'pending');
	if (nonApproved && nonApprovedStatus !== 'deleted') return fromRecord(nonApproved, nonApprovedStatus);
	const approved = await recordsOf(
		vendorSku,
		index && { records: index.approved, complete: index.approvedComplete },
		async () => await findIn(context, apiPaths.items, { validation_status: 'approved' }, vendorSku),
	);
	if (approved) return fromRecord(approved, 'approved');
	return nonApproved ? fromRecord(nonApproved, nonApprovedStatus) : undefined;
}
