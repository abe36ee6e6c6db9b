// The sandbox's rate limiter (admin `rate-limit`): a token bucket per client, 429 `{message}` with Retry-After in
// seconds, as an HTTP date or absent; refused requests are not processed; cleared by DELETE and by reset.
import { useSandbox, type ApiResult } from './helpers';

const { sb, api } = useSandbox();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `n` GET /v1/vendor one after the other; their statuses. */
async function burst(n: number, token: string): Promise<number[]> {
	const statuses: number[] = [];
	for (let i = 0; i < n; i++) statuses.push((await api().get('/v1/vendor', undefined, token)).status);
	return statuses;
}

describe('rate limit', () => {
	it('lets a full bucket (burst) through, then answers 429 {message} with Retry-After in seconds; logged as rateLimited', async () => {
		const token = await api().newToken();
		await sb().admin.clearRequests();
		expect(await sb().admin.setRateLimit({ rate: 2, burst: 3 })).toEqual({ rate: 2, burst: 3, retryAfter: 'seconds' });

		const answers: ApiResult[] = [];
		for (let i = 0; i < 5; i++) answers.push(await api().get('/v1/vendor', undefined, token));

		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
		expect(answers[3].body).toEqual({ message: 'Too many requests' });
		// The next token comes 0.5 s after the bucket emptied: whole seconds, rounded up.
		expect(answers[3].headers.get('retry-after')).toBe('1');
		const log = await sb().admin.requests();
		expect(log.map((r) => [r.status, r.rateLimited])).toEqual([
			[200, undefined],
			[200, undefined],
			[200, undefined],
			[429, true],
			[429, true],
		]);
		expect(log.every((r) => r.fault === undefined)).toBe(true);
	});

	it('refills at `rate` tokens per second: ~burst + rate × t requests get through in t seconds', async () => {
		const token = await api().newToken();
		await sb().admin.setRateLimit({ rate: 10, burst: 2 });
		const started = Date.now();
		let allowed = 0;
		let refused = 0;
		// Time the bucket may have spent full, refilling for nothing: after any request it holds at most 1 token
		// (burst - 1), so a pause of the client (a loaded machine) longer than 0.1 s loses what comes past that.
		let idleSeconds = 0;
		let lastSent = started;
		while (Date.now() - started < 1_000) {
			const sent = Date.now();
			idleSeconds += Math.max(0, (sent - lastSent) / 1000 - 0.1);
			lastSent = sent;
			if ((await api().get('/v1/vendor', undefined, token)).status === 200) allowed++;
			else refused++;
		}
		const ended = Date.now();
		idleSeconds += Math.max(0, (ended - lastSent) / 1000 - 0.1);
		const seconds = (ended - started) / 1000;
		expect(refused).toBeGreaterThan(0);
		expect(allowed).toBeGreaterThanOrEqual(Math.floor(2 + 10 * (seconds - idleSeconds)) - 2);
		expect(allowed).toBeLessThanOrEqual(Math.ceil(2 + 10 * seconds) + 1);
	});

	it('a waited-out Retry-After finds a token again', async () => {
		const token = await api().newToken();
		await sb().admin.setRateLimit({ rate: 4, burst: 1 });
		expect(await burst(2, token)).toEqual([200, 429]);
		await sleep(300); // 1.2 tokens
		expect(await burst(2, token)).toEqual([200, 429]);
	});

	it('keeps one bucket per client: the token of another client, and its token exchange, are not held up', async () => {
		const vendor = await api().newToken();
		const other = await api().nonVendorToken();
		await sb().admin.setRateLimit({ rate: 0.5, burst: 2 });

		expect(await burst(3, vendor)).toEqual([200, 200, 429]);
		// The non-vendor client's own bucket is full (403 is its normal answer on /v1/vendor).
		expect((await api().get('/v1/vendor', undefined, other)).status).toBe(403);
		expect((await api().get('/v1/consignments', undefined, other)).status).toBe(200);
		// The token exchange counts against the client_id it names.
		const exchange = (clientId: string, clientSecret: string) =>
			api().post(`${sb().authUrl}/api/v1/bearer-token`, { client_id: clientId, client_secret: clientSecret });
		expect((await exchange(sb().clientId, sb().clientSecret)).status).toBe(429);
		expect((await exchange('sandbox-nonvendor-id', 'sandbox-nonvendor-secret')).status).toBe(429);
		// Requests without a valid token are not limited: they get their 401.
		expect((await api().get('/v1/vendor', undefined, null)).status).toBe(401);
		expect((await api().get('/v1/vendor', undefined, 'not-a-token')).status).toBe(401);
	});

	it('answers Retry-After as an HTTP date (when the next token is there, rounded up to the second) or not at all', async () => {
		const token = await api().newToken();
		await sb().admin.setRateLimit({ rate: 1, burst: 1, retryAfter: 'http-date' });
		expect(await burst(1, token)).toEqual([200]);
		const limited = await api().get('/v1/vendor', undefined, token);
		expect(limited.status).toBe(429);
		const header = limited.headers.get('retry-after') ?? '';
		expect(header).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
		const waitMs = Date.parse(header) - Date.now();
		expect(waitMs).toBeGreaterThan(0);
		expect(waitMs).toBeLessThanOrEqual(2_000);

		await sb().admin.setRateLimit({ rate: 1, burst: 1, retryAfter: 'none' });
		expect(await burst(1, token)).toEqual([200]);
		const bare = await api().get('/v1/vendor', undefined, token);
		expect(bare.status).toBe(429);
		expect(bare.headers.get('retry-after')).toBeNull();
		expect(bare.body).toEqual({ message: 'Too many requests' });

		await sb().admin.setRateLimit({ rate: 1, burst: 1, retryAfterSeconds: 30 });
		await burst(1, token);
		expect((await api().get('/v1/vendor', undefined, token)).headers.get('retry-after')).toBe('30');
	});

	it('a refused request is not processed and uses up no fault', async () => {
		const token = await api().newToken();
		const item = (await sb().admin.state()).items.find((i) => i.validation_status === 'approved' && i.quantity > 1)!;
		await sb().admin.setRateLimit({ rate: 0.2, burst: 1 });
		expect(await burst(1, token)).toEqual([200]);
		await sb().admin.addFault({ kind: 'status', status: 503, pathPrefix: '/v1/items' });
		const patch = await api().request('PATCH', `/v1/items/${item.item_id}`, { token, body: { quantity: 1 } });
		expect(patch.status).toBe(429);
		expect((await sb().admin.state()).items.find((i) => i.item_id === item.item_id)?.quantity).toBe(item.quantity);
		expect(await sb().admin.rateLimit()).not.toBeNull();
		expect((await sb().admin.requests()).at(-1)).toMatchObject({ method: 'PATCH', status: 429, rateLimited: true });
		await sb().admin.clearRateLimit();
		expect(await sb().admin.rateLimit()).toBeNull();
		// The fault is still there for the next matching request.
		expect((await api().request('PATCH', `/v1/items/${item.item_id}`, { token, body: { quantity: 1 } })).status).toBe(503);
	});

	it('is cleared by DELETE and by reset; a new limit starts every bucket full', async () => {
		const token = await api().newToken();
		await sb().admin.setRateLimit({ rate: 0.1, burst: 1 });
		expect(await burst(2, token)).toEqual([200, 429]);
		await sb().admin.setRateLimit({ rate: 0.1, burst: 1 });
		expect(await burst(2, token)).toEqual([200, 429]);
		await sb().admin.clearRateLimit();
		expect(await burst(3, token)).toEqual([200, 200, 200]);
		await sb().admin.setRateLimit({ rate: 0.1, burst: 1 });
		await sb().admin.reset();
		expect(await sb().admin.rateLimit()).toBeNull();
		expect(await burst(3, token)).toEqual([200, 200, 200]);
	});

	it('refuses a malformed limit, naming the field', async () => {
		await expect(sb().admin.setRateLimit({ rate: 0 })).rejects.toThrow(/rate must be a number > 0/);
		await expect(sb().admin.setRateLimit({ rate: 5, burst: 0.5 })).rejects.toThrow(/burst must be at least 1/);
		await expect(sb().admin.setRateLimit({ rate: 5, retryAfter: 'minutes' as never })).rejects.toThrow(/retryAfter must be one of/);
		await expect(sb().admin.setRateLimit({ rate: 5, retryAfterSeconds: -1 })).rejects.toThrow(/retryAfterSeconds/);
		expect(await sb().admin.rateLimit()).toBeNull();
		// burst defaults to the rate (at least 1).
		expect(await sb().admin.setRateLimit({ rate: 0.5 })).toEqual({ rate: 0.5, burst: 1, retryAfter: 'seconds' });
		expect(await sb().admin.setRateLimit({ rate: 20 })).toMatchObject({ burst: 20 });
	});
});
