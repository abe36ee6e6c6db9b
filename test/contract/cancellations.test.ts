import { startReceiver, useSandbox } from './helpers';

const { sb, api } = useSandbox();
const cancel = (body: unknown) => api().request('POST', '/v1/cancellations', { body });

describe('POST /v1/cancellations', () => {
	it('cancels the order whose platform sku came in an item_purchased event', async () => {
		const receiver = await startReceiver();
		try {
			await api().request('PATCH', '/v1/vendor', { body: { webhook_url: receiver.url, webhook_enabled: true } });
			const delivery = await sb().admin.emitEvent({ operation: 'item_purchased' });
			expect(delivery.status).toBe(200);
			const data = receiver.received[0].body.body.data;
			expect(data).toEqual({ vendor_sku: expect.any(String), sku: expect.any(String), timestamp: expect.any(String), pdf_url: expect.any(String) });
			expect(data.sku).not.toBe(data.vendor_sku);
			const res = await cancel({ sku: data.sku });
			expect(res.status).toBe(200);
			expect(res.body).toEqual({ sku: data.sku, status: 'cancelled', cancelled_at: expect.any(String) });
			expect((await sb().admin.state()).orders.find((o) => o.sku === data.sku)?.status).toBe('cancelled');
		} finally {
			await receiver.close();
		}
	});

	it('cancels the seeded order TRR-ORD-000001 once; a second attempt answers 409', async () => {
		expect((await cancel({ sku: 'TRR-ORD-000001' })).status).toBe(200);
		const again = await cancel({ sku: 'TRR-ORD-000001' });
		expect(again.status).toBe(409);
		expect(again.body.error).toMatch(/already cancelled/);
	});

	it('answers 404 {error} for an unknown sku, such as a vendor_sku', async () => {
		const order = (await sb().admin.state()).orders[0];
		const res = await cancel({ sku: order.vendor_sku });
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ error: expect.stringMatching(new RegExp(order.vendor_sku)) });
	});

	it('answers 400 {error} naming sku when it is missing or not a string', async () => {
		for (const body of [{}, { sku: '' }, { sku: 123 }, { vendor_sku: 'SBX-1000' }]) {
			const res = await cancel(body);
			expect([body, res.status]).toEqual([body, 400]);
			expect(res.body.error).toMatch(/sku/);
		}
	});
});
