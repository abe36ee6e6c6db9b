import { useSandbox, validItem } from './helpers';

const { sb, api } = useSandbox();
const create = (items: unknown, consignment = 'cons_12345') =>
	api().request('POST', `/v1/consignments/${consignment}/items`, { body: { items } });

describe('POST /v1/consignments/{consignment_id}/items', () => {
	it('answers 200 {} when every item is valid; items are pending with new, distinct id and item_id', async () => {
		const before = await sb().admin.state();
		const inputs = [validItem({ vendor_sku: 'A-1' }), validItem({ vendor_sku: 'A-2', address_id: '301' })];
		const res = await create(inputs);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({});
		const state = await sb().admin.state();
		const created = state.items.filter((i) => ['A-1', 'A-2'].includes(i.vendor_sku));
		expect(created).toHaveLength(2);
		const oldIds = new Set(before.items.flatMap((i) => [i.id, i.item_id]));
		for (const item of created) {
			expect(item.validation_status).toBe('pending');
			expect(item.consignment_id).toBe('cons_12345');
			expect(item.id).not.toBe(item.item_id);
			expect(oldIds.has(item.id) || oldIds.has(item.item_id)).toBe(false);
		}
		expect(created[1].address_id).toBe(301);
		const listed = await api().get('/v1/items/non_approved', { vendor_sku: 'a-1' });
		expect(listed.body.products).toEqual([
			expect.objectContaining({ vendor_sku: 'A-1', item_status: 'pending', quantity: 2, price: { currency_code: 'USD', price: '1999.99' } }),
		]);
		const consignment = await api().get('/v1/consignments/cons_12345');
		const beforeCount = before.items.filter((i) => i.consignment_id === 'cons_12345').length;
		expect(consignment.body.consignment.consignment_items_count).toBe(beforeCount + 2);
	});

	it('ties items to the consignment in the path (numeric-looking ids too)', async () => {
		expect((await create([validItem({ vendor_sku: 'N-1' })], '1001')).status).toBe(200);
		const state = await sb().admin.state();
		expect(state.items.find((i) => i.vendor_sku === 'N-1')?.consignment_id).toBe('1001');
	});

	it('answers 207 {error:[{message, vendor_sku}]} for the invalid items and still creates the valid ones', async () => {
		const res = await create([
			validItem({ vendor_sku: 'OK-1' }),
			validItem({ vendor_sku: 'BAD-1', with_tags: 'yes' }),
			validItem({ vendor_sku: undefined }),
			validItem({ vendor_sku: 'OK-2' }),
		]);
		expect(res.status).toBe(207);
		expect(res.body).toEqual({
			error: [
				{ message: expect.stringMatching(/with_tags/), vendor_sku: 'BAD-1' },
				{ message: expect.stringMatching(/vendor_sku is required/), vendor_sku: null },
			],
		});
		const skus = (await sb().admin.state()).items.map((i) => i.vendor_sku);
		expect(skus).toEqual(expect.arrayContaining(['OK-1', 'OK-2']));
		expect(skus).not.toContain('BAD-1');
	});

	it('answers 207 when every item is invalid, creating none', async () => {
		const before = (await sb().admin.state()).items.length;
		const res = await create([validItem({ price: 12.5 })]);
		expect(res.status).toBe(207);
		expect(res.body.error).toHaveLength(1);
		expect((await sb().admin.state()).items.length).toBe(before);
	});

	const rules: Array<[string, Record<string, unknown>, RegExp]> = [
		['vendor_sku missing', { vendor_sku: undefined }, /vendor_sku is required/],
		['vendor_sku not a string', { vendor_sku: 123 }, /vendor_sku is invalid/],
		['taxon_permalink not in the catalog', { taxon_permalink: 'women/handbags/unknown' }, /taxon_permalink is invalid/],
		['taxon_permalink missing', { taxon_permalink: undefined }, /taxon_permalink is required/],
		['upc missing for a watch', { taxon_permalink: 'watches/strap' }, /upc is required/],
		['upc not a string', { upc: 12345 }, /upc is invalid/],
		['condition not in the catalog', { condition: 'Like new' }, /condition is invalid/],
		['with_tags not a boolean', { with_tags: 'true' }, /with_tags is invalid/],
		['designer not in the catalog', { designer: 'Chanell' }, /designer is invalid/],
		['designer in the wrong case', { designer: 'chanel' }, /designer is invalid/],
		['image missing', { image: undefined }, /image is required/],
		['image without back', { image: { front: 'https://x.example.com/f.jpg' } }, /image\.back is invalid/],
		['image front not a URL', { image: { front: 'front.jpg', back: 'https://x.example.com/b.jpg' } }, /image\.front is invalid/],
		['quantity not an integer', { quantity: 1.5 }, /quantity is invalid/],
		['quantity as a string', { quantity: '2' }, /quantity is invalid/],
		['quantity zero', { quantity: 0 }, /quantity is invalid/],
		['msrp in dollars with cents', { msrp: 3500.5 }, /msrp is invalid/],
		['price as a decimal string', { price: '1999.99' }, /price is invalid/],
		['price missing', { price: undefined }, /price is required/],
		['gender not an array', { gender: 'Women' }, /gender is invalid/],
		['gender with an unknown value', { gender: ['Women', 'Unisex'] }, /gender is invalid/],
		['gender lower-case', { gender: ['women'] }, /gender is invalid/],
		['gender empty', { gender: [] }, /gender is invalid/],
		['taxon_specific_attributes missing', { taxon_specific_attributes: undefined }, /taxon_specific_attributes is required/],
		['taxon_specific_attributes an array', { taxon_specific_attributes: [] }, /taxon_specific_attributes is invalid/],
		['designer_specific_attributes not an object', { designer_specific_attributes: 'x' }, /designer_specific_attributes is invalid/],
		['address_id as a number', { address_id: 301 }, /address_id is invalid/],
		['address_id unknown', { address_id: '999' }, /address_id is invalid/],
		['address_id of an inactive address', { address_id: '303' }, /address_id is invalid.*inactive/],
	];

	it.each(rules)('rejects an item with %s (207, message names the field)', async (_label, overrides, pattern) => {
		const res = await create([validItem({ vendor_sku: 'RULE-1', ...overrides }), validItem({ vendor_sku: 'RULE-OK' })]);
		expect(res.status).toBe(207);
		expect(res.body.error).toHaveLength(1);
		expect(res.body.error[0].message).toMatch(pattern);
		expect((await sb().admin.state()).items.some((i) => i.vendor_sku === 'RULE-OK')).toBe(true);
	});

	it('accepts a watch with a upc, an empty taxon_specific_attributes, both genders and no address_id', async () => {
		const res = await create([
			validItem({ taxon_permalink: 'watches/bracelet', upc: '012345678905', designer: 'Rolex', gender: ['Men', 'Women'], taxon_specific_attributes: {} }),
		]);
		expect(res.status).toBe(200);
	});

	it('lists every problem of an item in its one message', async () => {
		const res = await create([validItem({ vendor_sku: 'MULTI', with_tags: 1, designer: 'Nope', price: -5 })]);
		expect(res.body.error).toHaveLength(1);
		expect(res.body.error[0].message).toMatch(/with_tags.*designer.*price/);
	});

	it('rejects a vendor_sku that already exists (case-insensitively), also within one request', async () => {
		const existing = (await sb().admin.state()).items[0].vendor_sku;
		const res = await create([validItem({ vendor_sku: existing.toLowerCase() }), validItem({ vendor_sku: 'TWICE' }), validItem({ vendor_sku: 'TWICE' })]);
		expect(res.status).toBe(207);
		expect(res.body.error).toEqual([
			{ message: expect.stringMatching(/vendor_sku is invalid: .* already exists/), vendor_sku: existing.toLowerCase() },
			{ message: expect.stringMatching(/already exists/), vendor_sku: 'TWICE' },
		]);
		expect((await sb().admin.state()).items.filter((i) => i.vendor_sku === 'TWICE')).toHaveLength(1);
	});

	it('accepts 500 items and answers 413 {error} for 501, creating none', async () => {
		const batch = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => validItem({ vendor_sku: `${prefix}-${i}` }));
		expect((await create(batch(500, 'MAX'))).status).toBe(200);
		const before = (await sb().admin.state()).items.length;
		const res = await create(batch(501, 'OVER'));
		expect(res.status).toBe(413);
		expect(res.body).toEqual({ error: expect.stringMatching(/500/) });
		expect((await sb().admin.state()).items.length).toBe(before);
	});

	it('answers 404 {error} for an unknown consignment', async () => {
		const res = await create([validItem()], 'cons_00000');
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ error: expect.stringMatching(/cons_00000/) });
	});

	it('answers 400 {error} when items is missing, not an array or empty, or the body is not JSON', async () => {
		for (const body of [{}, { items: {} }, { items: [] }]) {
			const res = await api().request('POST', '/v1/consignments/cons_12345/items', { body });
			expect([body, res.status]).toEqual([body, 400]);
			expect(res.body.error).toMatch(/items/);
		}
		const raw = await api().request('POST', '/v1/consignments/cons_12345/items', { rawBody: '{items:', contentType: 'application/json' });
		expect(raw.status).toBe(400);
	});
});
