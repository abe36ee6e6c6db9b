// How the service treats new items, where the contract leaves it open: how long a submitted item takes to appear in
// the listings ("the item and its item_id appear once the service has processed it"), whether a repeated vendor_sku
// is refused, and whether numeric-looking SKUs come back as JSON numbers ("ids come as numbers or strings"). Changed
// at run time through POST /__sandbox/item-settings; `reset` restores the defaults.
import { fail, jsonObjectBody, ok } from './http';
import type { Router } from './router';
import type { StoredItem } from './types';

export interface ItemSettings {
	/** A created item is left out of both listings (and their vendor_sku filter) for this long on the sandbox clock. */
	listingDelaySeconds: number;
	/** false (the sandbox's own choice): a vendor_sku the vendor already has is refused in the creation's 207. */
	allowDuplicateSkus: boolean;
	/** true: the listings send a vendor_sku made of digits only as a JSON number. */
	numericSkusAsNumbers: boolean;
	/**
	 * true: the vendor_sku filter compares with the SKU as the listings show it, as a service that keeps digit-only
	 * SKUs as numbers may: with numericSkusAsNumbers, `0073001` finds nothing and `73001` finds the item "0073001".
	 */
	skuFilterAsListed: boolean;
}

export const DEFAULT_ITEM_SETTINGS: Readonly<ItemSettings> = {
	listingDelaySeconds: 0,
	allowDuplicateSkus: false,
	numericSkusAsNumbers: false,
	skuFilterAsListed: false,
};

export function parseItemSettings(input: Record<string, unknown>, current: ItemSettings): ItemSettings {
	const next = { ...current };
	const delay = input.listingDelaySeconds;
	if (delay !== undefined) {
		if (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0) throw fail(400, 'listingDelaySeconds must be a number >= 0');
		next.listingDelaySeconds = delay;
	}
	for (const field of ['allowDuplicateSkus', 'numericSkusAsNumbers', 'skuFilterAsListed'] as const) {
		const value = input[field];
		if (value === undefined) continue;
		if (typeof value !== 'boolean') throw fail(400, `${field} must be a boolean`);
		next[field] = value;
	}
	const unknown = Object.keys(input).filter((key) => !(key in DEFAULT_ITEM_SETTINGS));
	if (unknown.length) throw fail(400, `unknown item setting(s): ${unknown.join(', ')}`);
	return next;
}

/** Whether the listings show `item` yet. */
export function isListed(item: StoredItem, settings: ItemSettings, nowMs: number): boolean {
	return settings.listingDelaySeconds === 0 || Date.parse(item.created_at) + settings.listingDelaySeconds * 1000 <= nowMs;
}

export function skuAsListed(sku: string, settings: ItemSettings): string | number {
	return settings.numericSkusAsNumbers && /^\d{1,15}$/.test(sku) ? Number(sku) : sku;
}

export function registerItemSettingsAdmin(router: Router, prefix: string, items: { get(): ItemSettings; set(settings: ItemSettings): void }): void {
	router.add('GET', `${prefix}/item-settings`, () => ok(items.get()));
	router.add('POST', `${prefix}/item-settings`, (ctx) => {
		items.set(parseItemSettings(jsonObjectBody(ctx.body), items.get()));
		return ok(items.get());
	});
}
