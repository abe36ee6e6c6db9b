// POST /__sandbox/seed/items: adds many items at once (for scale tests: a 250,000-item listing is seeded in well
// under a second, where creating them through the API would take 500 requests and the sandbox's validation).
// Items are lean: the nested objects are shared between them (the sandbox replaces, never mutates, them).
import { CONDITIONS, DESIGNERS, TAXON_PERMALINKS, WATCH_TAXON_PREFIX } from './catalog';
import { fail, jsonObjectBody, ok } from './http';
import type { Router } from './router';
import type { SandboxStore } from './store';
import { ITEM_STATUSES, type ItemStatus } from './types';

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

function parse(input: Record<string, unknown>): Required<BulkItemsRequest> {
	const { count, status = 'approved', skuPrefix = 'BULK-', firstNumber = 1, consignmentId = 'cons_12345' } = input;
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_BULK_ITEMS) {
		throw fail(400, `count must be an integer from 1 to ${MAX_BULK_ITEMS}`);
	}
	if (!ITEM_STATUSES.includes(status as ItemStatus)) throw fail(400, `status must be one of ${ITEM_STATUSES.join(', ')}`);
	if (typeof skuPrefix !== 'string') throw fail(400, 'skuPrefix must be a string');
	if (typeof firstNumber !== 'number' || !Number.isInteger(firstNumber)) throw fail(400, 'firstNumber must be an integer');
	if (typeof consignmentId !== 'string') throw fail(400, 'consignmentId must be a string');
	return { count, status: status as ItemStatus, skuPrefix, firstNumber, consignmentId };
}

export function seedBulkItems(store: SandboxStore, request: Required<BulkItemsRequest>, nowIso: string): { first_item_id: number; count: number } {
	if (!store.findConsignment(request.consignmentId)) throw fail(404, `Consignment ${request.consignmentId} not found`);
	let first = 0;
	for (let i = 0; i < request.count; i++) {
		const ids = store.allocateItemIds();
		if (i === 0) first = ids.item_id;
		const vendorSku = `${request.skuPrefix}${request.firstNumber + i}`;
		const taxon = TAXONS[i % TAXONS.length];
		// Plain fields, not `...ids`: V8 builds a slow dictionary-mode object from a spread followed by many fields,
		// which made seeding 150,000 items take seconds and every later listing of them slow.
		store.items.push({
			id: ids.id,
			item_id: ids.item_id,
			consignment_id: request.consignmentId,
			vendor_sku: vendorSku,
			upc: null,
			address_id: null,
			description: `Bulk item ${vendorSku}`,
			designer: DESIGNERS[i % DESIGNERS.length],
			condition: CONDITIONS[i % CONDITIONS.length],
			taxon,
			with_tags: false,
			image: SHARED_IMAGE,
			quantity: 1,
			msrp: 20000,
			price: 10000,
			gender: taxon.startsWith('men/') ? ['Men'] : ['Women'],
			taxon_specific_attributes: SHARED_ATTRIBUTES,
			designer_specific_attributes: {},
			validation_status: request.status,
			created_at: nowIso,
			updated_at: nowIso,
		});
	}
	return { first_item_id: first, count: request.count };
}

export function registerBulkSeedAdmin(router: Router, prefix: string, target: { store(): SandboxStore; nowIso(): string }): void {
	router.add('POST', `${prefix}/seed/items`, (ctx) => ok(seedBulkItems(target.store(), parse(jsonObjectBody(ctx.body)), target.nowIso())));
}
