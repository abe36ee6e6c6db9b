// POST /v1/consignments/{consignment_id}/items: every item is validated on its own. All valid -> 200 {}; some
// invalid -> 207 {error: [{message, vendor_sku}]} and the valid ones are still created (status `pending`, new
// ids). Each created item sends successful_item_upload with its item_id; each rejected one invalid_item_upload.
import type { AuthContext } from '../auth';
import { fail, isPlainObject, jsonObjectBody, ok } from '../http';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import type { StoredConsignment, StoredItem } from '../types';
import { checkItemInput, type ItemInput } from '../validation/item-input';
import { fieldsFromInput, notifyUploaded } from './item-record';
import { requireVendorUser } from './vendor-only';

export const MAX_ITEMS_PER_REQUEST = 500;

export function registerItemCreateRoute(router: Router<AuthContext>, sandbox: Sandbox): void {
	router.add('POST', '/v1/consignments/:consignment_id/items', (ctx) => {
		requireVendorUser(ctx.auth);
		const store = sandbox.store;
		const consignment = store.findConsignment(ctx.params.consignment_id);
		if (!consignment) throw fail(404, `Consignment ${ctx.params.consignment_id} not found`);
		const { items } = jsonObjectBody(ctx.body);
		if (!Array.isArray(items)) throw fail(400, 'items is required and must be an array');
		if (items.length === 0) throw fail(400, 'items must not be empty');
		if (items.length > MAX_ITEMS_PER_REQUEST) {
			throw fail(413, `Too many items: ${items.length} sent, at most ${MAX_ITEMS_PER_REQUEST} per request`);
		}

		const errors: Array<{ message: string; vendor_sku: string | null }> = [];
		// Every SKU of the vendor, case-insensitive, the request's own as they are created: one look-up per item
		// instead of a scan of every item (5,000 new items against thousands would take seconds).
		const takenSkus = new Set(store.items.map((item) => item.vendor_sku.toLowerCase()));
		for (const raw of items) {
			const vendorSku = isPlainObject(raw) && typeof raw.vendor_sku === 'string' && raw.vendor_sku !== '' ? raw.vendor_sku : null;
			const result = checkItemInput(raw, store);
			if (result.value && !sandbox.items.allowDuplicateSkus && takenSkus.has(result.value.vendor_sku.toLowerCase())) {
				result.errors.push(`vendor_sku is invalid: ${result.value.vendor_sku} already exists`);
			}
			const timestamp = sandbox.clock.nowIso();
			if (result.errors.length || !result.value) {
				errors.push({ message: result.errors.join('; '), vendor_sku: vendorSku });
				sandbox.webhooks.notify('invalid_item_upload', {
					vendor_sku: vendorSku,
					consignment_id: consignment.id,
					timestamp,
					errors: result.errors,
				});
				continue;
			}
			takenSkus.add(result.value.vendor_sku.toLowerCase());
			notifyUploaded(sandbox, createItem(sandbox, consignment, result.value, timestamp), timestamp);
		}
		return errors.length ? { status: 207, body: { error: errors } } : ok({});
	});
}

function createItem(sandbox: Sandbox, consignment: StoredConsignment, input: ItemInput, now: string): StoredItem {
	const item: StoredItem = {
		...sandbox.store.allocateItemIds(),
		consignment_id: consignment.id,
		vendor_sku: input.vendor_sku,
		address_id: input.address_id,
		...fieldsFromInput(input),
		validation_status: 'pending',
		created_at: now,
		updated_at: now,
	};
	sandbox.store.items.push(item);
	consignment.updated_at = now;
	return item;
}
