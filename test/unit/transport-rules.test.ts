// transport/retryRules.ts: which failures are repeated for which method, what Retry-After asks, the backoff; and
// that the paginator repeats a refused page as the same page. n8n-workflow's `sleep` is replaced by a recorder,
// so the tests take no time. The queue itself: scheduler.test.ts.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readPages } from '../../nodes/shared/pagination';
import { apiRequest } from '../../nodes/shared/transport';
import type { HttpFailure } from '../../nodes/shared/httpFailure';
import { backoffMs, isIdempotent, isRetryable, mayHaveBeenProcessed, retryAfterMs } from '../../nodes/shared/transport/retryRules';
import { FAKE_BASE_URL, FAKE_NODE, n8nRequestError } from './fakes';

const sleeps: number[] = [];
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number, signal?: AbortSignal) => {
		sleeps.push(ms);
		if (signal?.aborted) throw new Error('aborted');
	},
}));

beforeEach(() => {
	sleeps.length = 0;
});

const noJitter = () => 0;

function httpFailure(status: number | undefined, headers: Record<string, string> = {}, extra: Partial<HttpFailure> = {}): HttpFailure {
	return { status, headers, message: '', reachedService: true, ...extra };
}

/** The body of the service's error answers in these tests (retrying does not depend on it). */
const INJECTED_FAULT = { error: 'Injected fault' };

describe('Retry-After', () => {
	const now = Date.parse('2030-01-01T00:00:00Z');

	it('reads delay-seconds, in any header-name case', () => {
		expect(retryAfterMs({ 'retry-after': '120' }, now)).toBe(120_000);
		expect(retryAfterMs({ 'Retry-After': '0' }, now)).toBe(0);
		expect(retryAfterMs({ 'RETRY-AFTER': ' 7 ' }, now)).toBe(7_000);
		expect(retryAfterMs({ 'retry-after': '1.5' }, now)).toBe(1_500);
		expect(retryAfterMs({ 'retry-after': 3 as unknown as string }, now)).toBe(3_000);
		expect(retryAfterMs({ 'retry-after': ['2', '9'] as unknown as string }, now)).toBe(2_000);
	});

	it('reads an HTTP date relative to now; a date in the past means no wait', () => {
		expect(retryAfterMs({ 'retry-after': 'Tue, 01 Jan 2030 00:00:30 GMT' }, now)).toBe(30_000);
		expect(retryAfterMs({ 'retry-after': 'Mon, 31 Dec 2029 23:00:00 GMT' }, now)).toBe(0);
	});

	it('is undefined when absent, empty, negative or unreadable', () => {
		expect(retryAfterMs({}, now)).toBeUndefined();
		expect(retryAfterMs({ 'retry-after': '' }, now)).toBeUndefined();
		expect(retryAfterMs({ 'retry-after': '-5' }, now)).toBeUndefined();
		expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
	});
});

describe('what is retried', () => {
	it('idempotent methods: GET, PATCH, DELETE (and PUT/HEAD/OPTIONS); not POST', () => {
		expect(['GET', 'patch', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'].every(isIdempotent)).toBe(true);
		expect(isIdempotent('POST')).toBe(false);
	});

	it.each([
		// [what, GET/PATCH retried?, POST retried?, failure]
		['429', true, true, httpFailure(429, { 'retry-after': '1' })],
		['429 without Retry-After', true, true, httpFailure(429)],
		['503 with Retry-After', true, true, httpFailure(503, { 'Retry-After': '2' })],
		['503 without Retry-After', true, false, httpFailure(503)],
		['502', true, false, httpFailure(502)],
		['504', true, false, httpFailure(504)],
		['500', false, false, httpFailure(500)],
		['501', false, false, httpFailure(501)],
		['400', false, false, httpFailure(400)],
		['401 (n8n refreshes the token itself)', false, false, httpFailure(401)],
		['404', false, false, httpFailure(404)],
		['ECONNRESET', true, false, httpFailure(undefined, {}, { code: 'ECONNRESET' })],
		['ETIMEDOUT', true, false, httpFailure(undefined, {}, { code: 'ETIMEDOUT' })],
		['socket hang up (no code)', true, false, httpFailure(undefined, {}, { message: 'socket hang up' })],
		['ECONNREFUSED (wrong Base URL)', false, false, httpFailure(undefined, {}, { code: 'ECONNREFUSED' })],
		['ENOTFOUND', false, false, httpFailure(undefined, {}, { code: 'ENOTFOUND' })],
		['a cancelled execution', false, false, httpFailure(undefined, {}, { code: 'ERR_CANCELED' })],
		['no request made (token exchange failed)', false, false, httpFailure(undefined, {}, { reachedService: false, message: 'socket hang up' })],
	])('%s: GET/PATCH retried %s, POST retried %s', (_what, get, post, failure) => {
		expect(isRetryable(failure, 'GET')).toBe(get);
		expect(isRetryable(failure, 'PATCH')).toBe(get);
		expect(isRetryable(failure, 'POST')).toBe(post);
	});

	it.each([
		['500', true, httpFailure(500)],
		['502', true, httpFailure(502)],
		['503 without Retry-After', true, httpFailure(503)],
		['503 with Retry-After (the service says: not now)', false, httpFailure(503, { 'retry-after': '1' })],
		['501 (not implemented: nothing was done)', false, httpFailure(501)],
		['429', false, httpFailure(429)],
		['400', false, httpFailure(400)],
		['a broken connection', true, httpFailure(undefined, {}, { code: 'ECONNRESET' })],
		['a timeout (axios: ECONNABORTED)', true, httpFailure(undefined, {}, { code: 'ECONNABORTED' })],
		['a timeout (ETIMEDOUT)', true, httpFailure(undefined, {}, { code: 'ETIMEDOUT' })],
		['a request aborted on the wire (ERR_CANCELED)', true, httpFailure(undefined, {}, { code: 'ERR_CANCELED' })],
		['a failure of unknown kind after the request was attempted', true, httpFailure(undefined, {}, { message: 'something odd' })],
		['a 3xx the client could not follow', true, httpFailure(302)],
		['a refused connection (never sent)', false, httpFailure(undefined, {}, { code: 'ECONNREFUSED' })],
		['an unknown host (never sent)', false, httpFailure(undefined, {}, { code: 'ENOTFOUND' })],
		['a refused TLS certificate (never sent)', false, httpFailure(undefined, {}, { code: 'CERT_HAS_EXPIRED' })],
		['no request attempted (the credential failed first)', false, httpFailure(undefined, {}, { reachedService: false, message: 'socket hang up' })],
		['408 (the service says it did not get the request)', false, httpFailure(408)],
		['409', false, httpFailure(409)],
	])('a POST failing with %s may have been carried out: %s', (_what, unknown, failure) => {
		expect(mayHaveBeenProcessed(failure, 'POST')).toBe(unknown);
		expect(mayHaveBeenProcessed(failure, 'GET')).toBe(false);
	});
});

describe('backoff', () => {
	it('grows exponentially from its base, capped, with at most 25 % jitter', () => {
		expect([1, 2, 3, 4].map((step) => backoffMs(step, 250, 8_000, noJitter))).toEqual([250, 500, 1000, 2000]);
		expect(backoffMs(30, 250, 8_000, noJitter)).toBe(8_000);
		expect(backoffMs(3, 250, 8_000, () => 0.999)).toBe(1249);
	});
});

describe('the cursor paginator retries a page as the same page', () => {
	it('a 429 on page 2: page 2 is asked again (by the transport) with the same cursor and filters; every record once', async () => {
		const pages: Record<string, { products: Array<{ item_id: number }>; page_info: object }> = {
			first: { products: [{ item_id: 1 }, { item_id: 2 }], page_info: { has_next_page: true, end_cursor: 'c2' } },
			c2: { products: [{ item_id: 3 }, { item_id: 4 }], page_info: { has_next_page: true, end_cursor: 'c3' } },
			c3: { products: [{ item_id: 5 }], page_info: { has_next_page: false, end_cursor: 'c5' } },
		};
		const sent: Array<Record<string, unknown>> = [];
		let refusedOnce = false;
		const context = {
			getNode: () => FAKE_NODE,
			getCredentials: async () => ({ baseUrl: FAKE_BASE_URL, clientId: 'transport-rules-paging' }),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: { qs?: IDataObject }) => {
					const qs = { ...(options.qs ?? {}) };
					sent.push(qs);
					if (qs.after === 'c2' && !refusedOnce) {
						refusedOnce = true;
						throw n8nRequestError(429, INJECTED_FAULT, { 'retry-after': '0' });
					}
					return { statusCode: 200, headers: {}, body: pages[String(qs.after ?? 'first')] };
				},
			},
		} as unknown as IExecuteFunctions;

		const ids: unknown[] = [];
		await readPages(
			async (qs) => (await apiRequest(context, { method: 'GET', url: '/v1/items', qs })).body as IDataObject,
			{ collectionKey: 'products', idKeys: ['item_id'], query: { validation_status: 'approved' } },
			{ node: FAKE_NODE, serviceKey: 'transport-rules', pageSize: 2 },
			(record) => ids.push((record as IDataObject).item_id),
		);

		expect(ids).toEqual([1, 2, 3, 4, 5]);
		expect(sent).toEqual([
			{ validation_status: 'approved', page_size: 2 },
			{ validation_status: 'approved', page_size: 2, after: 'c2' },
			{ validation_status: 'approved', page_size: 2, after: 'c2' },
			{ validation_status: 'approved', page_size: 2, after: 'c3' },
		]);
	});
});
