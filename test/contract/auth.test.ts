import { useSandbox } from './helpers';

const { sb, api } = useSandbox();
const tokenUrl = () => `${sb().authUrl}/api/v1/bearer-token`;

describe('token endpoint', () => {
	it('exchanges the vendor client credentials for a bearer token that lives 3600 s', async () => {
		const res = await api().post(tokenUrl(), { client_id: sb().clientId, client_secret: sb().clientSecret });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ bearer_token: expect.any(String), expires_in: 3600 });
		const vendor = await api().get('/v1/vendor', undefined, res.body.bearer_token);
		expect(vendor.status).toBe(200);
	});

	it('issues a new token per exchange', async () => {
		expect(await api().newToken()).not.toEqual(await api().newToken());
	});

	it('answers 401 {message} for a wrong secret or an unknown client', async () => {
		for (const body of [
			{ client_id: sb().clientId, client_secret: 'wrong' },
			{ client_id: 'nobody', client_secret: sb().clientSecret },
		]) {
			const res = await api().post(tokenUrl(), body);
			expect(res.status).toBe(401);
			expect(res.body).toEqual({ message: expect.any(String) });
		}
	});

	it('answers 400 {message} naming a missing or mistyped field', async () => {
		const missing = await api().post(tokenUrl(), { client_id: sb().clientId });
		expect(missing.status).toBe(400);
		expect(missing.body.message).toMatch(/client_secret/);
		const typed = await api().post(tokenUrl(), { client_id: 42, client_secret: 'x' });
		expect(typed.status).toBe(400);
		expect(typed.body.message).toMatch(/client_id/);
	});

	it('answers 400 {message} to a body that is not JSON', async () => {
		const res = await api().request('POST', '/auth/api/v1/bearer-token', {
			rawBody: 'client_id=sandbox-client-id&client_secret=sandbox-client-secret',
			contentType: 'application/x-www-form-urlencoded',
			token: null,
		});
		expect(res.status).toBe(400);
		expect(res.body.message).toMatch(/JSON/);
	});

	it('can answer in the public docs form {access_token, token_type, expires_in} (admin token-format)', async () => {
		await sb().admin.setTokenFormat('public-docs');
		const res = await api().post(tokenUrl(), { client_id: sb().clientId, client_secret: sb().clientSecret });
		expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
		expect((await api().get('/v1/vendor', undefined, res.body.access_token)).status).toBe(200);
		await sb().admin.reset();
		const back = await api().post(tokenUrl(), { client_id: sb().clientId, client_secret: sb().clientSecret });
		expect(Object.keys(back.body).sort()).toEqual(['bearer_token', 'expires_in']);
	});

	it('is only at {authUrl}/api/v1/bearer-token (the public docs path without /api is not served)', async () => {
		const res = await api().post(`${sb().authUrl}/v1/bearer-token`, { client_id: sb().clientId, client_secret: sb().clientSecret });
		expect(res.status).toBe(404);
	});
});

describe('bearer authentication', () => {
	it.each([
		['missing', null],
		['unknown', 'sbx_not-a-real-token'],
	])('answers 401 {message} for a %s token', async (_label, token) => {
		const res = await api().get('/v1/vendor', undefined, token);
		expect(res.status).toBe(401);
		expect(res.body).toEqual({ message: expect.any(String) });
	});

	it('answers 401 for an Authorization header that is not Bearer', async () => {
		const res = await fetch(`${sb().baseUrl}/v1/vendor`, { headers: { Authorization: `Basic ${btoa('a:b')}` } });
		expect(res.status).toBe(401);
		expect(await res.json()).toEqual({ message: expect.any(String) });
	});

	it('expires tokens after 3600 s of the sandbox clock', async () => {
		const token = await api().newToken();
		await sb().admin.advanceClock(3599);
		expect((await api().get('/v1/vendor', undefined, token)).status).toBe(200);
		await sb().admin.advanceClock(1);
		const expired = await api().get('/v1/vendor', undefined, token);
		expect(expired.status).toBe(401);
		expect(expired.body.message).toMatch(/expired/i);
		expect((await api().get('/v1/vendor', undefined, await api().newToken())).status).toBe(200);
	});

	it('answers 401 once tokens are revoked', async () => {
		const token = await api().newToken();
		await sb().admin.addFault({ kind: 'revokeTokens' });
		expect((await api().get('/v1/vendor', undefined, token)).status).toBe(401);
	});

	it('protects every /v1 endpoint', async () => {
		const endpoints: Array<[string, string]> = [
			['GET', '/v1/vendor'],
			['PATCH', '/v1/vendor'],
			['GET', '/v1/items'],
			['GET', '/v1/items/non_approved'],
			['POST', '/v1/consignments/cons_12345/items'],
			['PATCH', '/v1/items/50001'],
			['GET', '/v1/vendor/addresses'],
			['POST', '/v1/vendor/addresses'],
			['PATCH', '/v1/vendor/addresses/301'],
			['DELETE', '/v1/vendor/addresses/301'],
			['GET', '/v1/consignments'],
			['GET', '/v1/consignments/cons_12345'],
			['POST', '/v1/cancellations'],
		];
		for (const [method, path] of endpoints) {
			const res = await api().request(method, path, { token: null, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
			expect([method, path, res.status]).toEqual([method, path, 401]);
		}
	});
});

describe('token policy: one active token per client (admin token-policy)', () => {
	it('is off by default: an earlier token keeps working after a new exchange', async () => {
		const first = await api().newToken();
		await api().newToken();
		expect((await api().get('/v1/vendor', undefined, first)).status).toBe(200);
	});

	it('when on, a new token revokes only that client\'s earlier ones; reset turns it off', async () => {
		await sb().admin.setOneActiveTokenPerClient(true);
		const first = await api().newToken();
		const otherClient = await api().nonVendorToken();
		const second = await api().newToken();
		const revoked = await api().get('/v1/vendor', undefined, first);
		expect(revoked.status).toBe(401);
		expect(revoked.body).toEqual({ message: expect.stringMatching(/revoked/) });
		expect((await api().get('/v1/vendor', undefined, second)).status).toBe(200);
		expect((await api().get('/v1/consignments', undefined, otherClient)).status).toBe(200);

		await sb().admin.reset();
		const third = await api().newToken();
		expect((await api().get('/v1/vendor', undefined, second)).status).toBe(200);
		expect((await api().get('/v1/vendor', undefined, third)).status).toBe(200);
	});

	it('refuses a value that is not a boolean', async () => {
		const res = await fetch(`${sb().baseUrl}/__sandbox/token-policy`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ oneActivePerClient: 'yes' }),
		});
		expect(res.status).toBe(400);
	});
});

describe('non-vendor client', () => {
	it('gets a token, sees no consignments, and is refused (403) by vendor endpoints', async () => {
		const token = await api().nonVendorToken();
		const list = await api().get('/v1/consignments', undefined, token);
		expect(list.status).toBe(200);
		expect(list.body.consignments).toEqual([]);
		expect(list.body.page_info).toEqual({ start_cursor: null, end_cursor: null, has_previous_page: false, has_next_page: false });
		expect((await api().get('/v1/consignments/cons_12345', undefined, token)).status).toBe(404);
		const vendor = await api().get('/v1/vendor', undefined, token);
		expect(vendor.status).toBe(403);
		expect(vendor.body).toEqual({ message: expect.any(String) });
		// The vendor client sees the same consignments.
		expect((await api().get('/v1/consignments')).body.consignments.length).toBeGreaterThan(0);
	});
});

describe('request log', () => {
	it('records every API request incl. the token exchange, with the secret redacted', async () => {
		await api().post(tokenUrl(), { client_id: sb().clientId, client_secret: sb().clientSecret });
		const token = await api().newToken();
		await api().get('/v1/items', { validation_status: 'approved', page_size: 5 }, token);
		await api().get('/v1/vendor', undefined, null);
		await sb().admin.state(); // admin calls are not logged
		const log = await sb().admin.requests();
		expect(log.map((r) => [r.method, r.path, r.authorized, r.status])).toEqual([
			['POST', '/auth/api/v1/bearer-token', false, 200],
			['POST', '/auth/api/v1/bearer-token', false, 200],
			['GET', '/v1/items', true, 200],
			['GET', '/v1/vendor', false, 401],
		]);
		expect(log[0].body).toEqual({ client_id: sb().clientId, client_secret: '[redacted]' });
		expect(log[2].query).toEqual({ validation_status: 'approved', page_size: '5' });
		expect(log[2].body).toBeNull();
		expect(Date.parse(log[0].at)).not.toBeNaN();
		expect(JSON.stringify(log)).not.toContain(sb().clientSecret);
		expect(JSON.stringify(log)).not.toContain(token);
	});

	it('is cleared by clearRequests() and by reset()', async () => {
		await api().get('/v1/vendor', undefined, null);
		await sb().admin.clearRequests();
		expect(await sb().admin.requests()).toEqual([]);
		await api().get('/v1/vendor', undefined, null);
		await sb().admin.reset();
		expect(await sb().admin.requests()).toEqual([]);
	});
});
