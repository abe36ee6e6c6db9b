// GET /v1/items (approved or non-approved, see rule 1) and GET /v1/items/non_approved.
import type { AuthContext } from '../auth';
import { fail, ok } from '../http';
import { paginate } from '../pagination';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import { ITEM_STATUSES, type ItemStatus, type StoredItem } from '../types';
import { isListed, skuAsListed, type ItemSettings } from '../item-settings';
import { itemView, nonApprovedItemView } from './item-views';
import { requireVendorUser } from './vendor-only';

/** Status filters are case-insensitive; an unknown value is a 400 naming the parameter. */
function parseStatus(param: string, raw: string | undefined): ItemStatus | undefined {
	if (raw === undefined || raw === '') return undefined;
	const status = raw.toLowerCase() as ItemStatus;
	if (!ITEM_STATUSES.includes(status)) throw fail(400, `${param} is invalid: must be one of ${ITEM_STATUSES.join(', ')}`);
	return status;
}

function skuFilter(raw: string | undefined): string | undefined {
	return raw === undefined || raw === '' ? undefined : raw.toLowerCase();
}

/** Variant n of an item: n = 0 is the stored `id`; the others lie far above every item_id and stored id. */
const variantId = (item: StoredItem, n: number) => item.id + n * 100_000_000;

/** The filter compares with the stored SKU, or (skuFilterAsListed) with the SKU as the listings show it. */
const matchesSku = (item: StoredItem, sku: string | undefined, settings: ItemSettings) =>
	sku === undefined || (settings.skuFilterAsListed ? String(skuAsListed(item.vendor_sku, settings)) : item.vendor_sku).toLowerCase() === sku;

export function registerItemListRoutes(router: Router<AuthContext>, sandbox: Sandbox): void {
	// An item the service has not processed yet is in neither listing (item-settings.ts, listingDelaySeconds).
	const listed = (item: StoredItem) => isListed(item, sandbox.items, sandbox.clock.nowMs());
	router.add('GET', '/v1/items', (ctx) => {
		requireVendorUser(ctx.auth);
		const status = parseStatus('validation_status', ctx.query.validation_status);
		const sku = skuFilter(ctx.query.vendor_sku);
		const store = sandbox.store;
		const matches = (i: StoredItem) =>
			(status === undefined ? i.validation_status !== 'approved' : i.validation_status === status) && matchesSku(i, sku, sandbox.items) && listed(i);
		const context = sandbox.pageContext('GET /v1/items', ctx.query, { status, sku });
		const variants = sandbox.paging.variantsPerItem;
		if (variants === 1) {
			const { page, page_info } = paginate(store.items, (i) => i.item_id, context, matches);
			return ok({ products: page.map((i) => itemView(store, i, sandbox.items)), page_info });
		}
		// Each item listed as `variants` records (a paging setting): built per request, which suits test-sized listings.
		const records = store.items.flatMap((item) => Array.from({ length: variants }, (_, n) => ({ item, n })));
		const { page, page_info } = paginate(records, (r) => r.item.item_id * variants + r.n, context, (r) => matches(r.item));
		return ok({ products: page.map((r) => ({ ...itemView(store, r.item, sandbox.items), id: variantId(r.item, r.n) })), page_info });
	});

	router.add('GET', '/v1/items/non_approved', (ctx) => {
		requireVendorUser(ctx.auth);
		const status = parseStatus('status', ctx.query.status);
		const sku = skuFilter(ctx.query.vendor_sku);
		// This listing never shows approved items, so status=approved is valid but always empty.
		const matches = (i: StoredItem) =>
			i.validation_status !== 'approved' && (status === undefined || i.validation_status === status) && matchesSku(i, sku, sandbox.items) && listed(i);
		const context = sandbox.pageContext('GET /v1/items/non_approved', ctx.query, { status, sku });
		const { page, page_info } = paginate(sandbox.store.items, (i) => i.item_id, context, matches);
		return ok({ products: page.map((i) => nonApprovedItemView(i, sandbox.items)), page_info });
	});
}
