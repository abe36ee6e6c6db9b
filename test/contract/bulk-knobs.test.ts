// Admin knobs for bulk runs and benchmarks: a latency on every API request until cleared, and seeding thousands
// of items in one call.
import { useSandbox } from './helpers';

const { sb, api } = useSandbox();

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
	const started = performance.now();
	const value = await run();
	return { ms: performance.now() - started, value };
}

describe('latency', () => {
	it('delays every API request (the token exchange too) until cleared; the answers are otherwise normal', async () => {
		const token = await api().newToken();
		await sb().admin.setLatency(200);
		for (let i = 0; i < 2; i++) {
			const { ms, value } = await timed(() => api().get('/v1/vendor', undefined, token));
			expect(ms).toBeGreaterThanOrEqual(190);
			expect(value.status).toBe(200);
		}
		expect((await timed(() => api().newToken())).ms).toBeGreaterThanOrEqual(190);
		// Admin requests are never delayed.
		expect((await timed(() => sb().admin.state())).ms).toBeLessThan(150);
		// The log entries carry no fault: this is the service's normal pace, not an injected failure.
		expect((await sb().admin.requests()).every((r) => r.fault === undefined)).toBe(true);

		await sb().admin.clearLatency();
		expect((await timed(() => api().get('/v1/vendor', undefined, token))).ms).toBeLessThan(150);
	});

	it('adds up with latency faults, is cleared by reset, and refuses a bad value', async () => {
		const token = await api().newToken();
		await sb().admin.setLatency(150);
		await sb().admin.addFault({ kind: 'latency', ms: 150 });
		expect((await timed(() => api().get('/v1/vendor', undefined, token))).ms).toBeGreaterThanOrEqual(290);
		await sb().admin.reset();
		expect((await timed(() => api().get('/v1/vendor', undefined, token))).ms).toBeLessThan(140);
		await expect(sb().admin.setLatency(-1)).rejects.toThrow(/ms must be an integer/);
	});
});

describe('seedItems', () => {
	it('creates thousands of valid items in one call, listed and updatable through the API like any other', async () => {
		const { ms, value: seeded } = await timed(() => sb().admin.seedItems({ count: 5000, status: 'approved', skuPrefix: 'BULK-' }));
		expect(ms).toBeLessThan(5_000);
		expect(seeded).toHaveLength(5000);
		expect(seeded[0].vendor_sku).toBe('BULK-1');
		expect(seeded[4999].vendor_sku).toBe('BULK-5000');
		expect(new Set(seeded.map((item) => item.item_id)).size).toBe(5000);

		const page = await api().get('/v1/items', { validation_status: 'approved', vendor_sku: 'BULK-4321' });
		expect(page.body.products).toEqual([expect.objectContaining({ item_id: seeded[4320].item_id, vendor_sku: 'BULK-4321' })]);
		const patch = await api().request('PATCH', `/v1/items/${seeded[0].item_id}`, { body: { quantity: 1 } });
		expect(patch.status).toBe(200);
		const approved = (await sb().admin.state()).items.filter((item) => item.validation_status === 'approved');
		expect(approved.length).toBe(5000 + 26);
	});

	it('defaults to pending items in cons_12345, which a full PATCH (non-approved) accepts', async () => {
		const [item] = await sb().admin.seedItems({ count: 1 });
		const stored = (await sb().admin.state()).items.find((candidate) => candidate.item_id === item.item_id)!;
		expect(stored).toMatchObject({ vendor_sku: 'SEED-1', validation_status: 'pending', consignment_id: 'cons_12345' });
		const body = {
			vendor_sku: 'SEED-1', taxon_permalink: stored.taxon, condition: stored.condition, with_tags: stored.with_tags,
			designer: stored.designer, image: stored.image, quantity: stored.quantity, msrp: stored.msrp, price: 99,
			gender: stored.gender, taxon_specific_attributes: stored.taxon_specific_attributes,
		};
		expect((await api().request('PATCH', `/v1/items/${item.item_id}`, { body })).status).toBe(200);
	});

	it('refuses a bad count, an unknown consignment or status, and a SKU prefix already in use', async () => {
		await expect(sb().admin.seedItems({ count: 0 })).rejects.toThrow(/count must be/);
		await expect(sb().admin.seedItems({ count: 1, consignmentId: 'nope' })).rejects.toThrow(/consignmentId/);
		await expect(sb().admin.seedItems({ count: 1, status: 'sold' as never })).rejects.toThrow(/status must be/);
		await expect(sb().admin.seedItems({ count: 1, skuPrefix: 'SBX-' })).rejects.toThrow(/409.*skuPrefix is in use/);
		expect((await sb().admin.state()).items).toHaveLength(52);
	});
});
