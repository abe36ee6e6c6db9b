import { useSandbox } from './helpers';

const { sb, api } = useSandbox();

describe('GET /v1/consignments', () => {
	it('lists the consignments under `consignments`: string ids and a numeric-looking one sent as a number', async () => {
		const res = await api().get('/v1/consignments');
		expect(res.status).toBe(200);
		expect(res.body.consignments.map((c: { id: unknown }) => c.id)).toEqual(['cons_12345', 1001, 'cons_67890']);
		const state = await sb().admin.state();
		for (const c of res.body.consignments) {
			expect(Object.keys(c).sort()).toEqual(['consignment_items_count', 'created_at', 'id', 'status', 'updated_at']);
			expect(c.consignment_items_count).toBe(state.items.filter((i) => i.consignment_id === String(c.id)).length);
		}
		expect(res.body.consignments[0].status).toBe('created');
		expect(res.body.page_info).toMatchObject({ has_previous_page: false, has_next_page: false });
	});
});

describe('GET /v1/consignments/{consignment_id}', () => {
	it.each([
		['cons_12345', 'cons_12345'],
		['1001', 1001],
	])('returns {consignment} for %s', async (path, id) => {
		const res = await api().get(`/v1/consignments/${path}`);
		expect(res.status).toBe(200);
		expect(res.body.consignment).toEqual({
			id,
			status: 'created',
			created_at: expect.any(String),
			updated_at: expect.any(String),
			consignment_items_count: expect.any(Number),
		});
		expect(res.body.consignment.consignment_items_count).toBeGreaterThan(0);
	});

	it('answers 404 {error} for an unknown consignment', async () => {
		const res = await api().get('/v1/consignments/cons_99999');
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ error: expect.stringMatching(/cons_99999/) });
	});
});
