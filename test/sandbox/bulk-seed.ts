// Many items at once, through one of two admin routes sharing one loop:
// - POST /__sandbox/items/seed (`seedItems`): valid Chanel totes, each its own image URLs, every item_id answered;
//   for tests and the bench that address the items they seeded;
// - POST /__sandbox/seed/items (`seedManyItems`): lean items across the catalog sharing their nested objects (the
//   sandbox replaces, never mutates, them), only the first item_id answered; a 250,000-item listing is seeded in
//   well under a second, where creating them through the API would take 500 requests and the sandbox's validation.
import { CONDITIONS, DESIGNERS, TAXON_PERMALINKS, WATCH_TAXON_PREFIX } from './catalog';
import { fail, jsonObjectBody, ok } from './http';
import type { Router } from './router';
import type { SandboxStore } from './store';
import { ITEM_STATUSES, type ItemStatus, type SeedItemsRequest, type StoredItem } from './types';

export interface BulkItemsRequest {
	count: number;
	/** Validation status of every item (default approved). */
	status?: ItemStatus;
	/** vendor_sku = prefix + running number from `firstNumber` (default `BULK-`, 1). */
	skuPrefix?: string;
	firstNumber?: number;
	/** Default `cons_12345`. */
	consignmentId?: string;
}

const MAX_BULK_ITEMS = 1_000_000;
// Watches would need a UPC: left out.
const TAXONS = TAXON_PERMALINKS.filter((taxon) => !taxon.startsWith(WATCH_TAXON_PREFIX));
const SHARED_IMAGE = { front: 'https://images.example.com/bulk/front.jpg', back: 'https://images.example.com/bulk/back.jpg' };
const SHARED_ATTRIBUTES = { 'condition-description': 'Light wear', color: 'Black', material: ['Leather'] };

/** What one seeded item looks like beyond its ids, SKU, consignment and status. */
type ItemLook = Pick<
	StoredItem,
	'description' | 'designer' | 'condition' | 'taxon' | 'with_tags' | 'image' | 'quantity' | 'msrp' | 'price' | 'gender' | 'taxon_specific_attributes'
>;

/** The `n`-th lean item: catalog values in turn, nested objects shared. */
function leanLook(vendorSku: string, n: number): ItemLook {
	const taxon = TAXONS[n % TAXONS.length];
	return {
		description: `Bulk item ${vendorSku}`,
		designer: DESIGNERS[n % DESIGNERS.length],
		condition: CONDITIONS[n % CONDITIONS.length],
		taxon,
		with_tags: false,
		image: SHARED_IMAGE,
		quantity: 1,
		msrp: 20000,
		price: 10000,
		gender: taxon.startsWith('men/') ? ['Men'] : ['Women'],
		taxon_specific_attributes: SHARED_ATTRIBUTES,
	};
}

/** What a valid creation input (a Chanel tote, quantity 5) would store. */
function toteLook(vendorSku: string): ItemLook {
	return {
		description: `Chanel totes (${vendorSku})`,
		designer: 'Chanel',
		condition: 'Excellent',
		taxon: 'women/handbags/totes',
		with_tags: true,
		image: { front: `https://images.example.com/${vendorSku}/front.jpg`, back: `https://images.example.com/${vendorSku}/back.jpg` },
		quantity: 5,
		msrp: 250000,
		price: 129900,
		gender: ['Women'],
		taxon_specific_attributes: { color: 'Black', material: ['Leather'] },
	};
}

function parse(input: Record<string, unknown>, store: SandboxStore, defaults: { status: ItemStatus; skuPrefix: string }): Required<BulkItemsRequest> {
	const { count, status = defaults.status, skuPrefix = defaults.skuPrefix, firstNumber = 1, consignmentId = 'cons_12345' } = input;
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_BULK_ITEMS) {
		throw fail(400, `count must be an integer from 1 to ${MAX_BULK_ITEMS}`);
	}
	if (!ITEM_STATUSES.includes(status as ItemStatus)) throw fail(400, `status must be one of ${ITEM_STATUSES.join(', ')}`);
	if (typeof skuPrefix !== 'string' || skuPrefix === '') throw fail(400, 'skuPrefix must be a non-empty string');
	if (typeof firstNumber !== 'number' || !Number.isInteger(firstNumber)) throw fail(400, 'firstNumber must be an integer');
	if (typeof consignmentId !== 'string' || !store.findConsignment(consignmentId)) {
		throw fail(400, 'consignmentId must name an existing consignment');
	}
	return { count, status: status as ItemStatus, skuPrefix, firstNumber, consignmentId };
}

function seedBulkItems(store: SandboxStore, request: Required<BulkItemsRequest>, nowIso: string, lookOf: (vendorSku: string, n: number) => ItemLook): StoredItem[] {
	const created: StoredItem[] = [];
	for (let i = 0; i < request.count; i++) {
		const ids = store.allocateItemIds();
		const vendorSku = `${request.skuPrefix}${request.firstNumber + i}`;
		const look = lookOf(vendorSku, i);
		// Plain fields, no spread: V8 builds a slow dictionary-mode object from a spread followed by many fields,
		// which made seeding 150,000 items take seconds and every later listing of them slow.
		const item: StoredItem = {
			id: ids.id,
			item_id: ids.item_id,
			consignment_id: request.consignmentId,
			vendor_sku: vendorSku,
			upc: null,
			address_id: null,
			description: look.description,
			designer: look.designer,
			condition: look.condition,
			taxon: look.taxon,
			with_tags: look.with_tags,
			image: look.image,
			quantity: look.quantity,
			msrp: look.msrp,
			price: look.price,
			gender: look.gender,
			taxon_specific_attributes: look.taxon_specific_attributes,
			designer_specific_attributes: {},
			validation_status: request.status,
			created_at: nowIso,
			updated_at: nowIso,
		};
		store.items.push(item);
		created.push(item);
	}
	return created;
}

export function registerBulkSeedAdmin(router: Router, prefix: string, target: { store(): SandboxStore; nowIso(): string }): void {
	router.add('POST', `${prefix}/items/seed`, (ctx) => {
		const store = target.store();
		const body = jsonObjectBody(ctx.body) as Record<string, unknown> & SeedItemsRequest;
		const request = parse({ ...body, firstNumber: 1 }, store, { status: 'pending', skuPrefix: 'SEED-' });
		const wanted = request.skuPrefix.toLowerCase();
		if (store.items.some((item) => item.vendor_sku.toLowerCase().startsWith(wanted))) {
			throw fail(409, `skuPrefix is in use: items with vendor_sku ${request.skuPrefix}... exist already`);
		}
		const items = seedBulkItems(store, request, target.nowIso(), toteLook);
		// Only what a caller needs to address them: a 100,000-item answer should not carry every field.
		return ok({ items: items.map((item) => ({ item_id: item.item_id, vendor_sku: item.vendor_sku })) });
	});
	router.add('POST', `${prefix}/seed/items`, (ctx) => {
		const store = target.store();
		const request = parse(jsonObjectBody(ctx.body), store, { status: 'approved', skuPrefix: 'BULK-' });
		const items = seedBulkItems(store, request, target.nowIso(), leanLook);
		return ok({ first_item_id: items[0].item_id, count: items.length });
	});
}
