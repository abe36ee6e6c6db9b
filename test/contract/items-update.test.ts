import type { StoredItem } from '../sandbox';
import { useSandbox, validItem } from './helpers';

const { sb, api } = useSandbox();
const patch = (itemId: number | string, body: unknown) => api().request('PATCH', `/v1/items/${itemId}`, { body });

async function itemWith(pred: (i: StoredItem) => boolean): Promise<StoredItem> {
	const item = (await sb().admin.state()).items.find(pred);
	if (!item) throw new Error('no seeded item matches');
	return item;
}
const stored = async (itemId: number) => (await sb().admin.state()).items.find((i) => i.item_id === itemId)!;

/** The full creation input of an existing item, as a client resubmitting it would send. */
function resubmission(item: StoredItem, overrides: Record<string, unknown> = {}) {
	return validItem({
		vendor_sku: item.vendor_sku,
		taxon_permalink: item.taxon,
		upc: item.upc ?? undefined,
		designer: item.designer,
		condition: item.condition,
		quantity: item.quantity,
		...overrides,
	});
}

describe('PATCH /v1/items/{item_id}: not approved', () => {
	it('applies every field, price included, and answers 200 {id: string, status: "updated"}', async () => {
		const item = await itemWith((i) => i.validation_status === 'pending' && i.quantity > 0 && !i.taxon.startsWith('watches/'));
		const res = await patch(item.item_id, resubmission(item, { price: 12345, msrp: 99900, designer: 'Prada', address_id: '304', quantity: item.quantity + 3 }));
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ id: String(item.item_id), status: 'updated' });
		const after = await stored(item.item_id);
		expect(after).toMatchObject({ price: 12345, msrp: 99900, designer: 'Prada', address_id: 304, quantity: item.quantity + 3, validation_status: 'pending' });
		const listed = await api().get('/v1/items/non_approved', { vendor_sku: item.vendor_sku });
		expect(listed.body.products[0].price).toEqual({ currency_code: 'USD', price: '123.45' });
	});

	it('moves a rejected item back to pending', async () => {
		const item = await itemWith((i) => i.validation_status === 'rejected' && i.quantity > 0 && !i.taxon.startsWith('watches/'));
		expect((await patch(item.item_id, resubmission(item))).status).toBe(200);
		expect((await stored(item.item_id)).validation_status).toBe('pending');
	});

	it('needs all creation fields (400 {error} naming the missing one)', async () => {
		const item = await itemWith((i) => i.validation_status === 'pending' && i.quantity > 0);
		const res = await patch(item.item_id, { vendor_sku: item.vendor_sku, price: 100 });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ error: expect.stringMatching(/designer is required/) });
		expect((await stored(item.item_id)).price).toBe(item.price);
	});

	it('answers 400 {error} naming an invalid field, e.g. "with_tags is invalid", changing nothing', async () => {
		const item = await itemWith((i) => i.validation_status === 'pending' && i.quantity > 0 && !i.taxon.startsWith('watches/'));
		const res = await patch(item.item_id, resubmission(item, { with_tags: 'no', price: 1 }));
		expect(res.status).toBe(400);
		expect(res.body.error).toMatch(/with_tags is invalid/);
		expect((await stored(item.item_id)).price).toBe(item.price);
	});

	it('refuses a changed vendor_sku and linking an inactive address', async () => {
		const item = await itemWith((i) => i.validation_status === 'pending' && i.quantity > 0 && !i.taxon.startsWith('watches/'));
		const sku = await patch(item.item_id, resubmission(item, { vendor_sku: 'OTHER-SKU' }));
		expect(sku.status).toBe(400);
		expect(sku.body.error).toMatch(/vendor_sku/);
		const inactive = await patch(item.item_id, resubmission(item, { address_id: '303' }));
		expect(inactive.status).toBe(400);
		expect(inactive.body.error).toMatch(/address_id is invalid.*inactive/);
	});

	it('refuses raising quantity from 0', async () => {
		const item = await itemWith((i) => i.validation_status !== 'approved' && i.quantity === 0);
		const res = await patch(item.item_id, resubmission(item, { quantity: 1 }));
		expect(res.status).toBe(400);
		expect(res.body.error).toMatch(/quantity is invalid: cannot be raised from 0/);
	});
});

describe('PATCH /v1/items/{item_id}: approved', () => {
	it('applies address_id and a quantity decrease, ignoring every other field', async () => {
		const item = await itemWith((i) => i.validation_status === 'approved' && i.quantity >= 2);
		const res = await patch(item.item_id, { ...resubmission(item), quantity: item.quantity - 1, address_id: '304', price: 1, msrp: 2, designer: 'Gucci', with_tags: 'ignored' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ id: String(item.item_id), status: 'updated' });
		const after = await stored(item.item_id);
		expect(after).toMatchObject({ quantity: item.quantity - 1, address_id: 304, price: item.price, msrp: item.msrp, designer: item.designer });
		expect(after.validation_status).toBe('approved');
	});

	it('accepts a body with only quantity or only address_id', async () => {
		const item = await itemWith((i) => i.validation_status === 'approved' && i.quantity >= 2);
		expect((await patch(item.item_id, { quantity: 1 })).status).toBe(200);
		expect((await patch(item.item_id, { address_id: '302' })).status).toBe(200);
		expect(await stored(item.item_id)).toMatchObject({ quantity: 1, address_id: 302 });
	});

	it('refuses a quantity increase (400) and raising from 0', async () => {
		const item = await itemWith((i) => i.validation_status === 'approved' && i.quantity >= 1);
		const up = await patch(item.item_id, { quantity: item.quantity + 1 });
		expect(up.status).toBe(400);
		expect(up.body.error).toMatch(/quantity is invalid: can only be decreased/);
		const zero = await itemWith((i) => i.validation_status === 'approved' && i.quantity === 0);
		const fromZero = await patch(zero.item_id, { quantity: 1 });
		expect(fromZero.status).toBe(400);
		expect(fromZero.body.error).toMatch(/raised from 0/);
	});

	it('refuses an invalid or inactive address_id', async () => {
		const item = await itemWith((i) => i.validation_status === 'approved');
		for (const address_id of ['303', '999', 304]) {
			const res = await patch(item.item_id, { address_id });
			expect(res.status).toBe(400);
			expect(res.body.error).toMatch(/address_id is invalid/);
		}
	});
});

describe('PATCH /v1/items/{item_id}: identifiers', () => {
	it('answers 404 {error} for an unknown item_id', async () => {
		const res = await patch(1, { quantity: 1 });
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ error: expect.any(String) });
	});

	it('answers 404 when the variant id is used instead of item_id', async () => {
		const item = await itemWith((i) => i.validation_status === 'approved' && i.quantity >= 1);
		const res = await patch(item.id, { quantity: 0 });
		expect(res.status).toBe(404);
		expect((await stored(item.item_id)).quantity).toBe(item.quantity);
	});

	it('updates an item created through the API by the item_id it was given', async () => {
		await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items: [validItem({ vendor_sku: 'FRESH-1' })] } });
		const created = await itemWith((i) => i.vendor_sku === 'FRESH-1');
		const res = await patch(created.item_id, validItem({ vendor_sku: 'FRESH-1', price: 5000 }));
		expect(res.status).toBe(200);
		expect((await stored(created.item_id)).price).toBe(5000);
	});
});

describe('PATCH /v1/items/{item_id}: not approved, quantity only (the patch-policy knob)', () => {
	it('default: refused with a 400 naming the missing creation fields, nothing changed; partialNonApproved: applied', async () => {
		const item = await itemWith((i) => i.validation_status === 'pending' && i.quantity > 0);
		const refused = await patch(item.item_id, { quantity: 0 });
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatch(/is required/);
		expect((await stored(item.item_id)).quantity).toBe(item.quantity);

		await sb().admin.setPartialPatchOfNonApproved(true);
		const applied = await patch(item.item_id, { quantity: 0 });
		expect(applied.status).toBe(200);
		expect((await stored(item.item_id)).quantity).toBe(0);
		// Still never raised from 0, and a body with other fields still needs them all.
		expect((await patch(item.item_id, { quantity: 1 })).status).toBe(400);
		expect((await patch(item.item_id, { quantity: 0, price: 100 })).status).toBe(400);
	});
});
