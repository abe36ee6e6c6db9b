import { useSandbox, type Json } from './helpers';

const { sb, api } = useSandbox();

/** Every page of a listing, following end_cursor while has_next_page. */
async function all(path: string, query: Record<string, string> = {}): Promise<Json[]> {
	const out: Json[] = [];
	let after: string | undefined;
	for (;;) {
		const res = await api().get(path, { ...query, page_size: '100', after });
		expect(res.status).toBe(200);
		out.push(...res.body.products);
		if (!res.body.page_info.has_next_page) return out;
		after = res.body.page_info.end_cursor;
	}
}

describe('GET /v1/items', () => {
	it('without validation_status returns only non-approved items', async () => {
		const state = await sb().admin.state();
		const products = await all('/v1/items');
		const nonApproved = state.items.filter((i) => i.validation_status !== 'approved').map((i) => i.item_id);
		expect(products.map((p) => p.item_id)).toEqual(nonApproved);
		expect(products.length).toBeGreaterThan(20);
	});

	it('filters by validation_status, case-insensitively', async () => {
		const state = await sb().admin.state();
		const approved = state.items.filter((i) => i.validation_status === 'approved').map((i) => i.item_id);
		expect(approved.length).toBeGreaterThan(20);
		expect((await all('/v1/items', { validation_status: 'approved' })).map((p) => p.item_id)).toEqual(approved);
		expect((await all('/v1/items', { validation_status: 'APPROVED' })).map((p) => p.item_id)).toEqual(approved);
		for (const status of ['reconciliation', 'pending', 'rejected', 'deleted'] as const) {
			const expected = state.items.filter((i) => i.validation_status === status).map((i) => i.item_id);
			expect(expected.length).toBeGreaterThan(0);
			expect((await all('/v1/items', { validation_status: status })).map((p) => p.item_id)).toEqual(expected);
		}
	});

	it('answers 400 {error} naming validation_status for an unknown status', async () => {
		const res = await api().get('/v1/items', { validation_status: 'live' });
		expect(res.status).toBe(400);
		expect(res.body.error).toMatch(/validation_status/);
	});

	it('sends items with exactly the contract fields, price in integer cents, id differing from item_id', async () => {
		const res = await api().get('/v1/items', { validation_status: 'approved', page_size: '5' });
		for (const p of res.body.products) {
			expect(Object.keys(p).sort()).toEqual(
				['condition', 'consignment_id', 'created_at', 'description', 'designer', 'id', 'item_id', 'price', 'taxon', 'updated_at', 'vendor_sku'].sort(),
			);
			expect(Number.isInteger(p.id)).toBe(true);
			expect(Number.isInteger(p.item_id)).toBe(true);
			expect(p.id).not.toBe(p.item_id);
			expect(Number.isInteger(p.price)).toBe(true);
		}
	});

	it('sends a numeric-looking consignment_id as a JSON number and others as strings', async () => {
		const products = await all('/v1/items', { validation_status: 'approved' });
		const ids = new Set(products.map((p) => p.consignment_id));
		expect(ids).toEqual(new Set([1001, 'cons_12345']));
	});

	it('filters by vendor_sku case-insensitively and exactly; no match gives []', async () => {
		const state = await sb().admin.state();
		const approved = state.items.find((i) => i.validation_status === 'approved')!;
		const res = await api().get('/v1/items', { validation_status: 'approved', vendor_sku: approved.vendor_sku.toLowerCase() });
		expect(res.body.products.map((p: Json) => p.item_id)).toEqual([approved.item_id]);
		// Approved items are not in the default (non-approved) listing, even by vendor_sku.
		expect((await api().get('/v1/items', { vendor_sku: approved.vendor_sku })).body.products).toEqual([]);
		const partial = await api().get('/v1/items', { validation_status: 'approved', vendor_sku: approved.vendor_sku.slice(0, -1) });
		expect(partial.status).toBe(200);
		expect(partial.body.products).toEqual([]);
	});
});

describe('GET /v1/items/non_approved', () => {
	it('lists non-approved items in its own shape: price object with a decimal string, quantity, item_status, no id', async () => {
		const state = await sb().admin.state();
		const products = await all('/v1/items/non_approved');
		const expected = state.items.filter((i) => i.validation_status !== 'approved');
		expect(products.map((p) => p.item_id)).toEqual(expected.map((i) => i.item_id));
		const first = products[0];
		const stored = expected[0];
		expect(Object.keys(first).sort()).toEqual(
			['condition', 'consignment_id', 'created_at', 'description', 'designer', 'item_id', 'item_status', 'price', 'quantity', 'taxon', 'updated_at', 'vendor_sku'].sort(),
		);
		expect(first.price).toEqual({ currency_code: 'USD', price: (stored.price / 100).toFixed(2) });
		expect(first.price.price).toMatch(/^\d+\.\d{2}$/);
		expect(first.quantity).toBe(stored.quantity);
		expect(first.item_status).toBe(stored.validation_status);
		expect(typeof first.consignment_id).toBe('string');
	});

	it('filters by status (case-insensitive) and vendor_sku; status=approved is always empty', async () => {
		const state = await sb().admin.state();
		const rejected = state.items.filter((i) => i.validation_status === 'rejected');
		const res = await all('/v1/items/non_approved', { status: 'Rejected' });
		expect(res.map((p) => p.item_id)).toEqual(rejected.map((i) => i.item_id));
		expect(res.every((p) => p.item_status === 'rejected')).toBe(true);
		expect(await all('/v1/items/non_approved', { status: 'approved' })).toEqual([]);
		const bySku = await all('/v1/items/non_approved', { vendor_sku: rejected[0].vendor_sku.toLowerCase() });
		expect(bySku.map((p) => p.item_id)).toEqual([rejected[0].item_id]);
	});

	it('answers 400 {error} naming status for an unknown status', async () => {
		const res = await api().get('/v1/items/non_approved', { status: 'nope' });
		expect(res.status).toBe(400);
		expect(res.body.error).toMatch(/status/);
	});

	it('reflects admin status changes', async () => {
		const state = await sb().admin.state();
		const pending = state.items.find((i) => i.validation_status === 'pending')!;
		await sb().admin.setItemStatus(pending.item_id, 'approved');
		expect((await all('/v1/items/non_approved')).some((p) => p.item_id === pending.item_id)).toBe(false);
		expect((await all('/v1/items', { validation_status: 'approved' })).some((p) => p.item_id === pending.item_id)).toBe(true);
	});
});
