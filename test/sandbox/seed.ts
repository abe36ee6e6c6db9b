// Demo data. Deterministic (same ids and SKUs after every reset) so tests and `npm run dev` can rely on it:
// - consignments `cons_12345` (string id), `1001` (numeric-looking id, sent as a JSON number) and
//   `cons_67890` (no items);
// - 52 items: 26 approved, 26 non-approved in every other status, more than one page of each;
// - addresses 301, 302 (Puerto Rico), 304 active and 303 inactive;
// - one purchased order whose platform sku is `TRR-ORD-000001`.
import { CONDITIONS, DESIGNERS, TAXON_PERMALINKS, WATCH_TAXON_PREFIX } from './catalog';
import type { SandboxStore } from './store';
import type { Gender, ItemStatus, StoredAddress } from './types';

export const SEED_ITEM_COUNT = 52;
const NON_APPROVED_CYCLE: ItemStatus[] = ['pending', 'rejected', 'reconciliation', 'deleted', 'pending', 'draft'];
const DAY_MS = 24 * 3600 * 1000;

/** Consignments exist even in an unseeded sandbox: the API cannot create them, so item creation needs them. */
export function seedConsignments(store: SandboxStore, nowMs: number): void {
	const make = (id: string, numericId: boolean, status: string, ageDays: number) => {
		const at = new Date(nowMs - ageDays * DAY_MS).toISOString();
		store.consignments.push({ id, numericId, status, created_at: at, updated_at: at, seq: store.allocateConsignmentSeq() });
	};
	make('cons_12345', false, 'created', 30);
	make('1001', true, 'created', 20);
	make('cons_67890', false, 'received', 10);
}

/** `labelUrl(sku)`: the sandbox's own label URL for an order (its `pdf_url`). */
export function seedDemoData(store: SandboxStore, nowMs: number, labelUrl: (sku: string) => string): void {
	seedAddresses(store, nowMs);
	seedItems(store, nowMs);
	seedOrder(store, nowMs, labelUrl);
}

function seedAddresses(store: SandboxStore, nowMs: number): void {
	const at = new Date(nowMs - 40 * DAY_MS).toISOString();
	const base = { address2: '', email: null, created_at: at, updated_at: at };
	const rows: Array<Omit<StoredAddress, 'address_id' | 'created_at' | 'updated_at' | 'address2' | 'email'>> = [
		{ active: true, first_name: 'Ada', last_name: 'Lovelace', address1: '12 W 31st St', city: 'New York', state_abbr: 'NY', zipcode: '10001', country_iso: 'US', phone: '(212) 555-0101' },
		{ active: true, first_name: 'Rafael', last_name: 'Ortiz', address1: '100 Calle Fortaleza', city: 'PR', state_abbr: 'PR', zipcode: '00901', country_iso: 'PRI', phone: '787-555-0102' },
		{ active: false, first_name: 'Grace', last_name: 'Hopper', address1: '1 Old Warehouse Rd', city: 'Los Angeles', state_abbr: 'CA', zipcode: '90001-1234', country_iso: 'USA', phone: '3105550103' },
		{ active: true, first_name: 'Alan', last_name: 'Turing', address1: '200 N LaSalle St', city: 'Chicago', state_abbr: 'IL', zipcode: '60601', country_iso: 'US', phone: '312-555-0104' },
	];
	for (const row of rows) store.addresses.push({ ...base, ...row, address_id: store.allocateAddressId() });
}

function seedItems(store: SandboxStore, nowMs: number): void {
	const consignmentIds = ['cons_12345', '1001'];
	for (let i = 0; i < SEED_ITEM_COUNT; i++) {
		const status: ItemStatus = i % 2 === 0 ? 'approved' : NON_APPROVED_CYCLE[Math.floor(i / 2) % NON_APPROVED_CYCLE.length];
		const taxon = TAXON_PERMALINKS[i % TAXON_PERMALINKS.length];
		const designer = DESIGNERS[i % DESIGNERS.length];
		const at = new Date(nowMs - (SEED_ITEM_COUNT - i) * 3600 * 1000).toISOString();
		const gender: Gender[] = taxon.startsWith('men/') ? ['Men'] : taxon.startsWith('women/') ? ['Women'] : ['Men', 'Women'];
		const vendorSku = `SBX-${1000 + i}`;
		store.items.push({
			...store.allocateItemIds(),
			consignment_id: consignmentIds[Math.floor(i / 2) % 2],
			vendor_sku: vendorSku,
			upc: taxon.startsWith(WATCH_TAXON_PREFIX) ? `0${String(72000000000 + i)}` : null,
			address_id: i % 4 === 0 ? 301 : null,
			description: `${designer} ${taxon.split('/').pop()} (${vendorSku})`,
			designer,
			condition: CONDITIONS[i % CONDITIONS.length],
			taxon,
			with_tags: i % 3 === 0,
			image: { front: `https://images.example.com/${vendorSku}/front.jpg`, back: `https://images.example.com/${vendorSku}/back.jpg` },
			// Items 2 (approved) and 3 (pending) are sold out: quantity may not be raised from 0.
			quantity: i === 2 || i === 3 ? 0 : 1 + (i % 3),
			msrp: 20000 + i * 1500,
			price: 10000 + i * 1234,
			gender,
			taxon_specific_attributes: { 'condition-description': 'Light wear on corners', color: 'Black', material: ['Leather'] },
			designer_specific_attributes: {},
			validation_status: status,
			created_at: at,
			updated_at: at,
		});
	}
}

function seedOrder(store: SandboxStore, nowMs: number, labelUrl: (sku: string) => string): void {
	const item = store.items[0];
	const sku = store.allocateOrderSku();
	store.orders.push({
		sku,
		item_id: item.item_id,
		vendor_sku: item.vendor_sku,
		status: 'purchased',
		purchased_at: new Date(nowMs - DAY_MS).toISOString(),
		cancelled_at: null,
		pdf_url: labelUrl(sku),
	});
}
