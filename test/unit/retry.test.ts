// shared/retry.ts: which failures are repeated for which method, how long it waits (Retry-After, backoff), that
// it stops, and what the user then reads (errors.ts). n8n-workflow's `sleep` is replaced by a recorder, so the
// waits are asserted exactly and the tests take no time.
import type { DeclarativeRestApiSettings } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { toNodeApiError } from '../../nodes/ConsignmentVendor/shared/errors';
import { readHttpFailure, type HttpFailure } from '../../nodes/ConsignmentVendor/shared/httpFailure';
import { cursorPaginator } from '../../nodes/ConsignmentVendor/shared/pagination';
import {
	backoffMs,
	decideRetry,
	isIdempotent,
	isRetryable,
	mayHaveBeenProcessed,
	RETRY_POLICY,
	retryAfterMs,
	retryOutcomeOf,
	sendWithRetry,
} from '../../nodes/ConsignmentVendor/shared/retry';
import { connectionError, FAKE_NODE, n8n1RequestError, n8nRequestError, paginationContext } from './fakes';

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
		['a refused connection (never sent)', false, httpFailure(undefined, {}, { code: 'ECONNREFUSED' })],
	])('a POST failing with %s may have been carried out: %s', (_what, unknown, failure) => {
		expect(mayHaveBeenProcessed(failure, 'POST')).toBe(unknown);
		expect(mayHaveBeenProcessed(failure, 'GET')).toBe(false);
	});
});

describe('how long it waits, and when it stops', () => {
	it('backs off exponentially from 250 ms, capped, with at most 25 % jitter', () => {
		expect([1, 2, 3, 4].map((attempt) => backoffMs(attempt, RETRY_POLICY, noJitter))).toEqual([250, 500, 1000, 2000]);
		expect(backoffMs(30, RETRY_POLICY, noJitter)).toBe(RETRY_POLICY.maxBackoffMs);
		expect(backoffMs(3, RETRY_POLICY, () => 0.999)).toBe(1249);
	});

	it('waits as long as Retry-After asks when that is longer than the backoff', () => {
		expect(decideRetry(httpFailure(429, { 'retry-after': '5' }), 'GET', 1, RETRY_POLICY, noJitter)).toEqual({ retry: true, delayMs: 5000 });
		expect(decideRetry(httpFailure(429, { 'retry-after': '0' }), 'GET', 2, RETRY_POLICY, noJitter)).toEqual({ retry: true, delayMs: 500 });
	});

	it('stops after 4 tries in all', () => {
		expect(decideRetry(httpFailure(503), 'GET', 3, RETRY_POLICY, noJitter)).toEqual({ retry: true, delayMs: 1000 });
		expect(decideRetry(httpFailure(503), 'GET', 4, RETRY_POLICY, noJitter)).toEqual({ retry: false, reason: 'attemptsUsed' });
		expect(decideRetry(httpFailure(429), 'GET', 4, RETRY_POLICY, noJitter)).toEqual({ retry: false, reason: 'attemptsUsed' });
	});

	it('a 429 with no readable Retry-After backs off from 1 s (1, 2, 4 s), not from 250 ms', () => {
		expect([1, 2, 3].map((attempt) => decideRetry(httpFailure(429), 'POST', attempt, RETRY_POLICY, noJitter))).toEqual([
			{ retry: true, delayMs: 1000 },
			{ retry: true, delayMs: 2000 },
			{ retry: true, delayMs: 4000 },
		]);
		// A Retry-After the service did send is what counts, even a short one.
		expect(decideRetry(httpFailure(429, { 'retry-after': '0' }), 'GET', 1, RETRY_POLICY, noJitter)).toEqual({ retry: true, delayMs: 250 });
	});

	it('does not wait for a Retry-After over 60 s', () => {
		expect(decideRetry(httpFailure(429, { 'retry-after': '60' }), 'GET', 1, RETRY_POLICY, noJitter)).toEqual({ retry: true, delayMs: 60_000 });
		expect(decideRetry(httpFailure(429, { 'retry-after': '61' }), 'GET', 1)).toEqual({ retry: false, reason: 'waitTooLong' });
		expect(decideRetry(httpFailure(503, { 'retry-after': '3600' }), 'POST', 1)).toEqual({ retry: false, reason: 'waitTooLong' });
	});

	it('gives up at once on what is not retryable', () => {
		expect(decideRetry(httpFailure(500), 'GET', 1)).toEqual({ retry: false, reason: 'notRetryable' });
		expect(decideRetry(httpFailure(502), 'POST', 1)).toEqual({ retry: false, reason: 'notRetryable' });
	});
});

describe('sendWithRetry', () => {
	/** A request that fails with the given errors in turn, then answers `ok`. */
	function flaky(...failures: unknown[]) {
		const calls: number[] = [];
		const send = async () => {
			calls.push(calls.length + 1);
			const failure = failures[calls.length - 1];
			if (failure !== undefined) throw failure;
			return 'ok';
		};
		return { send, calls };
	}

	it('one request when nothing fails, no wait', async () => {
		const { send, calls } = flaky();
		await expect(sendWithRetry({}, 'GET', send)).resolves.toBe('ok');
		expect(calls).toHaveLength(1);
		expect(sleeps).toEqual([]);
	});

	it('repeats a 429 after the Retry-After, then returns the answer', async () => {
		const { send, calls } = flaky(n8nRequestError(429, INJECTED_FAULT, { 'retry-after': '2' }));
		await expect(sendWithRetry({}, 'POST', send)).resolves.toBe('ok');
		expect(calls).toHaveLength(2);
		expect(sleeps).toEqual([2000]);
	});

	it('n8n 1.x: the 429 reaches the node without its headers, so the wait is the 1 s rate-limit backoff', async () => {
		const error = n8n1RequestError(429, INJECTED_FAULT, { 'retry-after': '1' });
		expect(readHttpFailure(error)).toMatchObject({ status: 429, headers: {} });
		const { send, calls } = flaky(error, error);
		await expect(sendWithRetry({}, 'POST', send)).resolves.toBe('ok');
		expect(calls).toHaveLength(3);
		expect(sleeps[0]).toBeGreaterThanOrEqual(1000);
		expect(sleeps[0]).toBeLessThan(1250);
		expect(sleeps[1]).toBeGreaterThanOrEqual(2000);
		expect(sleeps[1]).toBeLessThan(2500);
	});

	it('repeats a GET 503 and a broken connection with growing waits', async () => {
		const { send, calls } = flaky(n8nRequestError(503, INJECTED_FAULT), connectionError('ECONNRESET', 'socket hang up'));
		await expect(sendWithRetry({}, 'GET', send)).resolves.toBe('ok');
		expect(calls).toHaveLength(3);
		expect(sleeps).toHaveLength(2);
		expect(sleeps[0]).toBeGreaterThanOrEqual(250);
		expect(sleeps[0]).toBeLessThan(313);
		expect(sleeps[1]).toBeGreaterThanOrEqual(500);
		expect(sleeps[1]).toBeLessThan(625);
	});

	it('a persistent 429: 4 tries, then the last error, tagged with what was done', async () => {
		const error = n8nRequestError(429, INJECTED_FAULT, { 'retry-after': '1' });
		const { send, calls } = flaky(error, error, error, error, error);
		const thrown = await sendWithRetry({}, 'GET', send).catch((e: unknown) => e);
		expect(thrown).toBe(error);
		expect(calls).toHaveLength(4);
		expect(sleeps).toHaveLength(3);
		expect(retryOutcomeOf(thrown)).toEqual({ attempts: 4, reason: 'attemptsUsed', waitedMs: sleeps.reduce((a, b) => a + b), outcomeUnknown: false });
		// The tag is not enumerable: copies of the error (as n8n makes for the execution data) do not carry it.
		expect(retryOutcomeOf({ ...(thrown as object) })).toBeUndefined();
		expect(JSON.stringify(thrown)).not.toContain('attemptsUsed');
	});

	it('a POST 500 is sent once and its outcome is unknown', async () => {
		const { send, calls } = flaky(n8nRequestError(500, INJECTED_FAULT));
		const thrown = await sendWithRetry({}, 'POST', send).catch((e: unknown) => e);
		expect(calls).toHaveLength(1);
		expect(sleeps).toEqual([]);
		expect(retryOutcomeOf(thrown)).toMatchObject({ attempts: 1, reason: 'notRetryable', outcomeUnknown: true });
	});

	it('a POST whose connection broke is sent once and its outcome is unknown', async () => {
		const { send, calls } = flaky(connectionError('ECONNRESET', 'socket hang up'));
		const thrown = await sendWithRetry({}, 'POST', send).catch((e: unknown) => e);
		expect(calls).toHaveLength(1);
		expect(retryOutcomeOf(thrown)).toMatchObject({ outcomeUnknown: true });
	});

	it('stops waiting when the execution is cancelled', async () => {
		const controller = new AbortController();
		controller.abort();
		const { send, calls } = flaky(n8nRequestError(429, INJECTED_FAULT), n8nRequestError(429, INJECTED_FAULT));
		const thrown = await sendWithRetry({ getExecutionCancelSignal: () => controller.signal }, 'GET', send).catch((e: unknown) => e);
		expect(calls).toHaveLength(1);
		expect(retryOutcomeOf(thrown)).toMatchObject({ reason: 'cancelled' });
	});

	it('errors that are not request errors (our own, a postReceive bug) are not repeated', async () => {
		const { send, calls } = flaky(new Error('boom'));
		await expect(sendWithRetry({}, 'GET', send)).rejects.toThrow('boom');
		expect(calls).toHaveLength(1);
	});
});

describe('what the user reads after the retries (errors.ts)', () => {
	async function afterRetries(method: string, ...errors: unknown[]) {
		let call = 0;
		const thrown = await sendWithRetry({}, method, async () => {
			throw errors[Math.min(call++, errors.length - 1)];
		}).catch((e: unknown) => e);
		return toNodeApiError(FAKE_NODE, thrown, { itemIndex: 0 }) as NodeApiError;
	}

	it('429 after 4 tries: the rate-limit message, and a hint that says the node already retried', async () => {
		const error = await afterRetries('GET', n8nRequestError(429, INJECTED_FAULT, { 'retry-after': '1' }));
		expect(error.message).toBe('Rate limited by the service — retry after 1 second');
		expect(error.description).toMatch(/already sent the request 4 times, waiting about \d+ seconds in all/);
		expect(error.description).not.toMatch(/Turn on "Retry On Fail"/);
	});

	it('429 asking for more than 60 s: not waited for, and the hint says why', async () => {
		const error = await afterRetries('GET', n8nRequestError(429, INJECTED_FAULT, { 'retry-after': '900' }));
		expect(sleeps).toEqual([]);
		expect(error.message).toBe('Rate limited by the service — retry after 900 seconds');
		expect(error.description).toMatch(/longer wait than the node waits by itself \(at most 60 seconds\)/);
	});

	it('a GET 503 after 4 tries keeps the 5xx message and says it was tried 4 times', async () => {
		const error = await afterRetries('GET', n8nRequestError(503, INJECTED_FAULT));
		expect(error.message).toBe('The service failed to process the request (HTTP 503) — try again later');
		expect(error.description).toMatch(/already sent the request 4 times/);
	});

	it('a POST 500: outcome unknown, check before running again', async () => {
		const error = await afterRetries('POST', n8nRequestError(500, { error: 'database unavailable' }));
		expect(error.message).toBe(
			'Outcome unknown — the service failed while handling the request (HTTP 500); it may or may not have been carried out. Check before running again',
		);
		expect(error.description).toMatch(/not sent again.*twice/);
		expect(error.description).toMatch(/database unavailable/);
	});

	it('a POST with a broken connection: outcome unknown too; a refused one is just unreachable', async () => {
		const broken = await afterRetries('POST', connectionError('ECONNRESET', 'socket hang up'));
		expect(broken.message).toMatch(/^Outcome unknown — the connection broke after the request was sent; it may or may not have been carried out/);
		// No network code in the message: n8n would swap such a message for its generic one wherever it is wrapped.
		expect(broken.message).not.toMatch(/ECONNRESET/);
		expect(broken.description).toMatch(/Connection error: ECONNRESET/);
		expect((await afterRetries('POST', connectionError('ECONNREFUSED', 'connect ECONNREFUSED'))).message).toBe('The service could not be reached (ECONNREFUSED)');
	});
});

describe('the cursor paginator retries a page as the same page', () => {
	it('a 429 on page 2: page 2 is asked again with the same cursor and filters; every record once', async () => {
		const pages: Record<string, { products: Array<{ item_id: number }>; page_info: object }> = {
			first: { products: [{ item_id: 1 }, { item_id: 2 }], page_info: { has_next_page: true, end_cursor: 'c2' } },
			c2: { products: [{ item_id: 3 }, { item_id: 4 }], page_info: { has_next_page: true, end_cursor: 'c3' } },
			c3: { products: [{ item_id: 5 }], page_info: { has_next_page: false, end_cursor: 'c5' } },
		};
		const sent: Array<Record<string, unknown>> = [];
		let refusedOnce = false;
		const context = paginationContext({
			parameters: { returnAll: true, listOptions: { pageSize: 2 } },
			makeRoutingRequest: async (request) => {
				const qs = { ...(request.options.qs ?? {}) };
				sent.push(qs);
				if (qs.after === 'c2' && !refusedOnce) {
					refusedOnce = true;
					throw n8nRequestError(429, INJECTED_FAULT, { 'retry-after': '0' });
				}
				return [{ json: pages[String(qs.after ?? 'first')] }];
			},
		});

		const items = await cursorPaginator('products').call(context, {
			options: { method: 'GET', url: '/v1/items', qs: { validation_status: 'approved' } },
		} as unknown as DeclarativeRestApiSettings.ResultOptions);

		expect(items.map((item) => item.json.item_id)).toEqual([1, 2, 3, 4, 5]);
		expect(sent).toEqual([
			{ validation_status: 'approved', page_size: 2 },
			{ validation_status: 'approved', page_size: 2, after: 'c2' },
			{ validation_status: 'approved', page_size: 2, after: 'c2' },
			{ validation_status: 'approved', page_size: 2, after: 'c3' },
		]);
		expect(sleeps).toHaveLength(1);
	});
});
