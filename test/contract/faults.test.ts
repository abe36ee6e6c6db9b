import { useSandbox, validItem } from './helpers';

const { sb, api } = useSandbox();

describe('faults', () => {
	it('rateLimit answers 429 with Retry-After for the next N matching requests, then recovers; all are logged', async () => {
		const token = await api().newToken();
		await sb().admin.clearRequests();
		await sb().admin.addFault({ kind: 'rateLimit', count: 2, retryAfterSeconds: 7, pathPrefix: '/v1/items' });
		const vendor = await api().get('/v1/vendor', undefined, token);
		expect(vendor.status).toBe(200); // does not match pathPrefix
		for (let i = 0; i < 2; i++) {
			const res = await api().get('/v1/items', undefined, token);
			expect(res.status).toBe(429);
			expect(res.headers.get('retry-after')).toBe('7');
		}
		expect((await api().get('/v1/items', undefined, token)).status).toBe(200);
		const log = await sb().admin.requests();
		expect(log.map((r) => [r.path, r.status, r.fault])).toEqual([
			['/v1/vendor', 200, undefined],
			['/v1/items', 429, 'rateLimit'],
			['/v1/items', 429, 'rateLimit'],
			['/v1/items', 200, undefined],
		]);
	});

	it('skip lets the first N matching requests through, then applies (a fault on page 2 of a listing)', async () => {
		const token = await api().newToken();
		await sb().admin.clearRequests();
		await sb().admin.addFault({ kind: 'rateLimit', skip: 1, pathPrefix: '/v1/items' });
		expect((await api().get('/v1/vendor', undefined, token)).status).toBe(200); // not matching: not counted
		const first = await api().get('/v1/items', { validation_status: 'approved', page_size: 10 }, token);
		expect(first.status).toBe(200);
		const after = first.body.page_info.end_cursor;
		expect((await api().get('/v1/items', { validation_status: 'approved', page_size: 10, after }, token)).status).toBe(429);
		expect((await api().get('/v1/items', { validation_status: 'approved', page_size: 10, after }, token)).status).toBe(200);
		expect((await sb().admin.requests()).map((r) => [r.path, r.status, r.fault])).toEqual([
			['/v1/vendor', 200, undefined],
			['/v1/items', 200, undefined],
			['/v1/items', 429, 'rateLimit'],
			['/v1/items', 200, undefined],
		]);
		await expect(sb().admin.addFault({ kind: 'status', skip: -1 })).rejects.toThrow(/skip/);
	});

	it('outage answers 503 with an HTTP-date Retry-After to every matching request for its time, then is gone', async () => {
		const token = await api().newToken();
		await sb().admin.clearRequests();
		await sb().admin.addFault({ kind: 'outage', method: 'GET', pathPrefix: '/v1/vendor', skip: 1, ms: 1_200 });
		expect((await api().get('/v1/vendor', undefined, token)).status).toBe(200); // skipped
		const started = Date.now();
		const during = [await api().get('/v1/vendor', undefined, token), await api().get('/v1/vendor', undefined, token)];
		for (const res of during) {
			expect(res.status).toBe(503);
			// Whole seconds, never before the end: a client waiting as told finds the service back.
			const until = Date.parse(res.headers.get('retry-after') ?? '');
			expect(until).toBeGreaterThanOrEqual(started + 1_200 - 5);
			expect(until % 1000).toBe(0);
		}
		expect((await api().request('PATCH', '/v1/vendor', { token, body: {} })).status).not.toBe(503); // other method
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 1_250 - Date.now())));
		expect((await api().get('/v1/vendor', undefined, token)).status).toBe(200);
		expect((await sb().admin.requests()).filter((r) => r.method === 'GET').map((r) => [r.status, r.fault])).toEqual([
			[200, undefined],
			[503, 'outage'],
			[503, 'outage'],
			[200, undefined],
		]);
		expect(await sb().admin.addFault({ kind: 'outage', retryAfter: 'soon' } as never).catch((e: Error) => e.message)).toMatch(/retryAfter/);
	});

	it('status answers the given code (default 500) and respects method', async () => {
		const token = await api().newToken();
		await sb().admin.addFault({ kind: 'status', status: 503, method: 'patch' });
		await sb().admin.addFault({ kind: 'status' });
		expect((await api().request('PATCH', '/v1/vendor', { token, body: {} })).status).toBe(503);
		const next = await api().get('/v1/vendor', undefined, token);
		expect(next.status).toBe(500);
		expect(next.body).toEqual({ error: expect.any(String) });
		expect((await api().get('/v1/vendor', undefined, token)).status).toBe(200);
	});

	it('status answers with the given body instead of processing the request (e.g. a 207 naming a SKU not sent)', async () => {
		const token = await api().newToken();
		const body = { error: [{ message: 'price is invalid', vendor_sku: 'NOT-SENT' }] };
		await sb().admin.addFault({ kind: 'status', status: 207, method: 'POST', pathPrefix: '/v1/consignments/', body });
		const items = [validItem({ vendor_sku: 'FAULT-1' })];
		const res = await api().request('POST', '/v1/consignments/cons_12345/items', { token, body: { items } });
		expect(res.status).toBe(207);
		expect(res.body).toEqual(body);
		expect((await sb().admin.state()).items.map((item) => item.vendor_sku)).not.toContain('FAULT-1');
		// Without the fault the same request creates the item.
		expect((await api().request('POST', '/v1/consignments/cons_12345/items', { token, body: { items } })).status).toBe(200);
		expect((await sb().admin.state()).items.map((item) => item.vendor_sku)).toContain('FAULT-1');
	});

	it('applies to the token endpoint too', async () => {
		await sb().admin.addFault({ kind: 'status', status: 502, pathPrefix: '/auth/' });
		const res = await api().post(`${sb().authUrl}/api/v1/bearer-token`, { client_id: sb().clientId, client_secret: sb().clientSecret });
		expect(res.status).toBe(502);
		expect((await sb().admin.requests()).at(-1)).toMatchObject({ path: '/auth/api/v1/bearer-token', status: 502, fault: 'status' });
	});

	it('latency delays the answer, which is otherwise normal', async () => {
		const token = await api().newToken();
		await sb().admin.addFault({ kind: 'latency', ms: 400 });
		const started = Date.now();
		const res = await api().get('/v1/vendor', undefined, token);
		expect(Date.now() - started).toBeGreaterThanOrEqual(380);
		expect(res.status).toBe(200);
		expect((await sb().admin.requests()).at(-1)).toMatchObject({ status: 200, fault: 'latency' });
	});

	it('drop closes the connection without an answer, logged with status 0', async () => {
		const token = await api().newToken();
		await sb().admin.addFault({ kind: 'drop' });
		await expect(api().get('/v1/vendor', undefined, token)).rejects.toThrow();
		expect((await sb().admin.requests()).at(-1)).toMatchObject({ path: '/v1/vendor', status: 0, fault: 'drop' });
		expect((await api().get('/v1/vendor', undefined, token)).status).toBe(200);
	});

	it('revokeTokens invalidates every issued token at once; new tokens work', async () => {
		const a = await api().newToken();
		const b = await api().newToken();
		await sb().admin.addFault({ kind: 'revokeTokens' });
		expect((await api().get('/v1/vendor', undefined, a)).status).toBe(401);
		expect((await api().get('/v1/vendor', undefined, b)).body).toEqual({ message: expect.any(String) });
		expect((await api().get('/v1/vendor', undefined, await api().newToken())).status).toBe(200);
	});

	it('are cleared by reset() and refused when malformed', async () => {
		await sb().admin.addFault({ kind: 'status', count: 5 });
		await sb().admin.reset();
		expect((await api().get('/v1/vendor')).status).toBe(200);
		await expect(sb().admin.addFault({ kind: 'explode' as never })).rejects.toThrow(/400/);
		await expect(sb().admin.addFault({ kind: 'status', count: 0 })).rejects.toThrow(/count/);
	});

	it('never touch /__sandbox requests', async () => {
		await sb().admin.addFault({ kind: 'status', count: 3 });
		await sb().admin.state();
		await sb().admin.catalog();
		expect((await api().get('/v1/vendor', undefined, null)).status).toBe(500);
	});
});
