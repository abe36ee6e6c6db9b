import { createHmac } from 'node:crypto';

import { startReceiver, useSandbox, validAddress, validItem, type Json } from './helpers';

const { sb, api } = useSandbox();
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeEach(async () => {
	receiver = await startReceiver();
	await api().request('PATCH', '/v1/vendor', { body: { webhook_url: receiver.url, webhook_enabled: true } });
});
afterEach(async () => {
	await receiver.close();
});

/** Deliveries are queued in order, so once this marker arrives every earlier event has been attempted. */
async function settle(): Promise<Json[]> {
	await sb().admin.emitEvent({ operation: 'marker' });
	return receiver.received.map((r) => r.body).filter((b) => b.body?.operation !== 'marker');
}

describe('item events', () => {
	it('sends successful_item_upload with the new item_id for each created item, invalid_item_upload for each rejected one', async () => {
		const res = await api().request('POST', '/v1/consignments/1001/items', {
			body: { items: [validItem({ vendor_sku: 'W-1' }), validItem({ vendor_sku: 'W-2', designer: 'Nobody' }), validItem({ vendor_sku: undefined })] },
		});
		expect(res.status).toBe(207);
		const events = await settle();
		const created = (await sb().admin.state()).items.find((i) => i.vendor_sku === 'W-1')!;
		expect(events).toEqual([
			{ body: { operation: 'successful_item_upload', data: { vendor_sku: 'W-1', item_id: created.item_id, consignment_id: '1001', timestamp: expect.any(String), errors: [] } } },
			{ body: { operation: 'invalid_item_upload', data: { vendor_sku: 'W-2', consignment_id: '1001', timestamp: expect.any(String), errors: [expect.stringMatching(/designer is invalid/)] } } },
			{ body: { operation: 'invalid_item_upload', data: { vendor_sku: null, consignment_id: '1001', timestamp: expect.any(String), errors: [expect.stringMatching(/vendor_sku is required/)] } } },
		]);
	});

	it('sends successful_item_upload for a PATCH of a non-approved item, nothing for an approved one', async () => {
		const state = await sb().admin.state();
		const approved = state.items.find((i) => i.validation_status === 'approved' && i.quantity > 1)!;
		expect((await api().request('PATCH', `/v1/items/${approved.item_id}`, { body: { quantity: 1, address_id: '304' } })).status).toBe(200);
		await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items: [validItem({ vendor_sku: 'P-1' })] } });
		const pending = (await sb().admin.state()).items.find((i) => i.vendor_sku === 'P-1')!;
		expect((await api().request('PATCH', `/v1/items/${pending.item_id}`, { body: validItem({ vendor_sku: 'P-1', price: 777 }) })).status).toBe(200);
		const events = await settle();
		expect(events.map((e) => [e.body.operation, e.body.data.item_id])).toEqual([
			['successful_item_upload', pending.item_id],
			['successful_item_upload', pending.item_id],
		]);
	});

	it('sends nothing when webhooks are disabled or no URL is set', async () => {
		await api().request('PATCH', '/v1/vendor', { body: { webhook_enabled: false } });
		await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items: [validItem()] } });
		await api().request('PATCH', '/v1/vendor', { body: { webhook_enabled: true, webhook_url: '' } });
		await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items: [validItem()] } });
		await sb().admin.emitEvent({ operation: 'marker', url: receiver.url });
		expect(receiver.received.map((r) => r.body.body.operation)).toEqual(['marker']);
	});
});

describe('address events', () => {
	it('sends address_creation in the notification_event envelope for create, update and delete', async () => {
		const created = await api().request('POST', '/v1/vendor/addresses', { body: validAddress() });
		const id = created.body.address.address_id;
		await api().request('PATCH', `/v1/vendor/addresses/${id}`, { body: validAddress({ city: 'Salem' }) });
		await api().request('DELETE', `/v1/vendor/addresses/${id}`);
		const events = await settle();
		expect(events).toHaveLength(3);
		for (const e of events) {
			expect(e).toEqual({
				type: 'notification_event',
				data: { event_type: 'vendor_address_upsert_response', timestamp: expect.any(String), id, errors: [] },
				properties: { operation: 'address_creation', data: { timestamp: expect.any(String), id, errors: [] } },
				meta: { topic: 'vendor_address_upsert_response' },
			});
		}
	});

	it('sends address_creation with id null and the errors when an address is refused', async () => {
		await api().request('POST', '/v1/vendor/addresses', { body: validAddress({ zipcode: 'x' }) });
		const [event] = await settle();
		expect(event.properties).toEqual({
			operation: 'address_creation',
			data: { timestamp: expect.any(String), id: null, errors: [expect.stringMatching(/zipcode is invalid/)] },
		});
	});
});

describe('delivery', () => {
	it('signs the exact raw body with X-TRR-Signature (hex HMAC-SHA256) when a signing secret is set', async () => {
		await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items: [validItem()] } });
		await settle();
		expect(receiver.received[0].headers['x-trr-signature']).toBeUndefined();
		await sb().admin.setSigningSecret('whsec_test');
		await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items: [validItem()] } });
		await settle();
		const signed = receiver.received[2];
		const expected = createHmac('sha256', 'whsec_test').update(signed.rawBody).digest('hex');
		expect(signed.headers['x-trr-signature']).toBe(expected);
		expect(signed.headers['x-trr-signature']).toMatch(/^[0-9a-f]{64}$/);
		expect(signed.headers['content-type']).toBe('application/json');
		// The secret is never sent or recorded.
		expect(JSON.stringify(await sb().admin.webhookDeliveries())).not.toContain('whsec_test');
	});

	it('does not block the API response on a slow receiver, and records the delivery once answered', async () => {
		const slow = await startReceiver({ delayMs: 1500, status: 202 });
		try {
			await api().request('PATCH', '/v1/vendor', { body: { webhook_url: slow.url } });
			const started = Date.now();
			const res = await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items: [validItem({ vendor_sku: 'SLOW' })] } });
			expect(res.status).toBe(200);
			expect(Date.now() - started).toBeLessThan(1000);
			const [delivery] = await sb().admin.waitForDeliveries(1, 5000);
			expect(delivery).toMatchObject({
				url: slow.url,
				operation: 'successful_item_upload',
				envelope: 'body',
				status: 202,
				error: null,
				body: { body: { operation: 'successful_item_upload', data: expect.objectContaining({ vendor_sku: 'SLOW' }) } },
			});
			expect(JSON.parse(delivery.rawBody)).toEqual(delivery.body);
		} finally {
			await slow.close();
		}
	});

	it('records a failed delivery with its error', async () => {
		await receiver.close();
		await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items: [validItem()] } });
		const [delivery] = await sb().admin.waitForDeliveries(1);
		expect(delivery.status).toBeNull();
		expect(delivery.error).toEqual(expect.any(String));
		receiver = await startReceiver();
	});
});

describe('admin-emitted events', () => {
	it.each([
		['body', (op: string, data: Json) => ({ body: { operation: op, data } })],
		['bare', (op: string, data: Json) => ({ operation: op, data })],
		[
			'notification_event',
			(op: string, data: Json) => ({ type: 'notification_event', data: { event_type: `vendor_${op}`, ...data }, properties: { operation: op, data }, meta: { topic: `vendor_${op}` } }),
		],
	] as const)('sends item_purchased in the %s envelope', async (envelope, shape) => {
		const delivery = await sb().admin.emitEvent({ operation: 'item_purchased', envelope, data: { vendor_sku: 'SBX-1002' } });
		expect(delivery.status).toBe(200);
		const data = { vendor_sku: 'SBX-1002', sku: expect.stringMatching(/^TRR-ORD-/), timestamp: expect.any(String), pdf_url: expect.stringMatching(new RegExp(`^${sb().url}/labels/TRR-ORD-\\d+\\.pdf$`)) };
		expect(receiver.received[0].body).toEqual(shape('item_purchased', data));
	});

	it('answers 409 when the vendor has no enabled webhook and no url is given', async () => {
		await api().request('PATCH', '/v1/vendor', { body: { webhook_enabled: false } });
		await expect(sb().admin.emitEvent({ operation: 'item_purchased' })).rejects.toThrow(/409/);
		const delivery = await sb().admin.emitEvent({ operation: 'successful_item_upload', url: receiver.url, data: { vendor_sku: 'X', errors: [] } });
		expect(delivery.status).toBe(200);
	});
});
