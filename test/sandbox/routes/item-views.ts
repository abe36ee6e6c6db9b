// How an item looks in each listing. The two listings differ on purpose, as in the contract: GET /v1/items has the
// variant `id` and integer cents; /v1/items/non_approved has no `id`, a price object, quantity and item_status.
import { DEFAULT_ITEM_SETTINGS, skuAsListed, type ItemSettings } from '../item-settings';
import type { SandboxStore } from '../store';
import type { StoredItem } from '../types';

/** Numeric-looking consignment ids go out as JSON numbers in GET /v1/items ("a number may be returned"). */
function consignmentIdAsSent(store: SandboxStore, id: string): string | number {
	return store.findConsignment(id)?.numericId ? Number(id) : id;
}

export function itemView(store: SandboxStore, item: StoredItem, settings: ItemSettings = DEFAULT_ITEM_SETTINGS) {
	return {
		id: item.id,
		item_id: item.item_id,
		description: item.description,
		designer: item.designer,
		price: item.price,
		taxon: item.taxon,
		consignment_id: consignmentIdAsSent(store, item.consignment_id),
		condition: item.condition,
		vendor_sku: skuAsListed(item.vendor_sku, settings),
		created_at: item.created_at,
		updated_at: item.updated_at,
	};
}

export function nonApprovedItemView(item: StoredItem, settings: ItemSettings = DEFAULT_ITEM_SETTINGS) {
	return {
		item_id: item.item_id,
		description: item.description,
		quantity: item.quantity,
		designer: item.designer,
		price: { currency_code: 'USD', price: (item.price / 100).toFixed(2) },
		taxon: item.taxon,
		consignment_id: item.consignment_id,
		condition: item.condition,
		vendor_sku: skuAsListed(item.vendor_sku, settings),
		item_status: item.validation_status,
		created_at: item.created_at,
		updated_at: item.updated_at,
	};
}
