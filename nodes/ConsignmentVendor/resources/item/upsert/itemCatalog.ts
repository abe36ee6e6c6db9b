/**
 * Upsert: read the vendor's listings once, or look every row up by SKU? Lookups cost at least a request per row;
 * the listings one per 100 items the vendor has, which the contract does not tell in advance. So the listings are
 * read within a budget of a tenth of the rows (what was read still saves lookups; at most 10% more than lookups
 * alone, on the first run), and their cost is remembered per credential for the next Upsert to choose.
 * A listing that fails is given up for lookups, which report their own failures per row.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { toNodeApiError } from '../../../../shared/errors';
import { serviceKeyOf } from '../../../shared/listOperation';
import { pageRequests, readPages } from '../../../../shared/pagination';
import { apiPaths } from '../../../../shared/apiPaths';
import { recordsMatching, skuKey } from '../helpers/skuText';

/** What the listings said about the vendor's items, filed by skuKey (skuText.ts: find a row's with recordsMatching). */
export interface ItemCatalog {
	nonApproved: Map<string, IDataObject[]>;
	/** False when the budget ended the non-approved listing early: a SKU not in `nonApproved` may still exist. */
	nonApprovedComplete: boolean;
	approved: Map<string, IDataObject[]>;
	approvedComplete: boolean;
	requests: number;
}

/** Share of the rows' lookups the listings may spend when their size is not known. */
const UNKNOWN_SIZE_BUDGET_SHARE = 0.1;
/** Room, in requests, for listings that grew since they were last read. */
const GROWTH_ROOM = 2;
/** Requests both listings took when last read in full (or at least, when a budget stopped them), per credential. */
const listingCosts = new Map<string, { requests: number; complete: boolean }>();

export function forgetListingCosts(): void {
	listingCosts.clear();
}

/** The fields Upsert needs of a listed item, and those its preview compares with a row (the records are not kept). */
function slim(record: IDataObject, status?: string): IDataObject {
	return {
		item_id: record.item_id,
		vendor_sku: record.vendor_sku,
		item_status: status ?? record.item_status,
		quantity: record.quantity,
		designer: record.designer,
		condition: record.condition,
		taxon: record.taxon,
		price: record.price,
	};
}

/**
 * Undefined when they are not worth reading. `whole` (missing items, mirror/missingItemsRun.ts): both listings in
 * full whatever they cost, and a failure is thrown, not given up for lookups.
 */
export async function readItemCatalog(context: IExecuteFunctions, rows: number, { whole = false } = {}): Promise<ItemCatalog | undefined> {
	if (rows === 0 && !whole) return undefined;
	const serviceKey = await serviceKeyOf(context);
	const known = listingCosts.get(serviceKey);
	// Lookups cost at least one request per row: listings known to cost as much are not read at all.
	if (known !== undefined && known.requests >= rows && !whole) return undefined;
	const budget = whole ? Number.POSITIVE_INFINITY : known?.complete ? known.requests + GROWTH_ROOM : Math.floor(rows * UNKNOWN_SIZE_BUDGET_SHARE);
	// Both listings take at least a request each: with fewer rows than that pays for, lookups it is.
	if (budget < 2) return undefined;

	const index: ItemCatalog = {
		nonApproved: new Map(),
		nonApprovedComplete: false,
		approved: new Map(),
		approvedComplete: false,
		requests: 0,
	};
	const read = async (url: string, query: IDataObject, into: Map<string, IDataObject[]>, status?: string) => {
		const result = await readPages(
			pageRequests(context, url),
			{ collectionKey: 'products', idKeys: ['id', 'item_id'], query },
			{ node: context.getNode(), serviceKey, maxRequests: budget - index.requests },
			(record) => {
				const key = skuKey((record as IDataObject | null)?.vendor_sku);
				if (key === null) return;
				const list = into.get(key);
				if (list) list.push(slim(record as IDataObject, status));
				else into.set(key, [slim(record as IDataObject, status)]);
			},
		);
		index.requests += result.requests;
		return result.complete;
	};
	try {
		index.nonApprovedComplete = await read(apiPaths.nonApprovedItems, {}, index.nonApproved);
		if (index.nonApprovedComplete) {
			index.approvedComplete = await read(apiPaths.items, { validation_status: 'approved' }, index.approved, 'approved');
		}
	} catch (error) {
		if (whole) throw toNodeApiError(context.getNode(), error, { method: 'GET' });
		// What was read so far stays usable; the rest is looked up row by row (and fails there, per row, if it must).
	}
	const complete = index.nonApprovedComplete && index.approvedComplete;
	if (complete || index.requests >= budget) listingCosts.set(serviceKey, { requests: index.requests, complete });
	return index;
}

/**
 * Whether the listings show an item of a (lower-cased) row SKU in a status other than deleted, in any of its forms
 * (skuText.ts); undefined unless both listings were read in full (a SKU not read may still exist).
 */
export function shownSkus(index: ItemCatalog | undefined): ((lowerCasedSku: string) => boolean) | undefined {
	if (!index?.nonApprovedComplete || !index.approvedComplete) return undefined;
	const listedSku = (record: IDataObject) => record.vendor_sku;
	return (sku) =>
		recordsMatching(index.approved, sku, listedSku).length > 0 ||
		recordsMatching(index.nonApproved, sku, listedSku).some((record) => record.item_status !== 'deleted');
}
