// toNodeApiError: what a user reads for each kind of failure, and that nothing secret travels with it.
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { toNodeApiError } from '../../nodes/shared/errors';
import { readHttpFailure, serviceMessage } from '../../nodes/shared/httpFailure';
import { withOutcome } from '../../nodes/shared/transport/outcome';
import { mayHaveBeenProcessed } from '../../nodes/shared/transport/retryRules';
import { connectionError, FAKE_NODE, n8n1ConnectionError, n8nRequestError, LEAK_CANARY } from './fakes';

function map(error: unknown, context = {}) {
	return toNodeApiError(FAKE_NODE, error, context) as NodeApiError;
}

function everythingVisible(error: NodeApiError): string {
	return JSON.stringify({ message: error.message, description: error.description, context: error.context, messages: error.messages, cause: (error as { cause?: unknown }).cause, errorResponse: (error as { errorResponse?: unknown }).errorResponse });
}

describe('toNodeApiError', () => {
	it('401 (after n8n refreshed the token): credentials rejected, check the Client ID/Secret', () => {
		const error = map(n8nRequestError(401, { message: 'Unauthorized' }), { itemIndex: 2 });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Credentials rejected — check the Client ID/Secret in the credential');
		expect(error.description).toMatch(/even after n8n requested a new access token.*Unauthorized/);
		expect(error.httpCode).toBe('401');
		expect(error.context.itemIndex).toBe(2);
	});

	it('401 of the token request itself says so', () => {
		const error = map(n8nRequestError(401, { error: 'invalid_client' }, {}, 'http://127.0.0.1:9/auth/api/v1/bearer-token'));
		expect(error.message).toMatch(/token request was refused: check the Client ID, Client Secret and Auth URL/);
	});

	it('403: permission denied, vendor permissions', () => {
		const error = map(n8nRequestError(403, ''));
		expect(error.message).toBe('Permission denied — the API user needs vendor permissions');
	});

	it('400: the service\'s error text, which names the field', () => {
		const error = map(n8nRequestError(400, { error: 'with_tags is invalid' }));
		expect(error.message).toBe('The service rejected the request: with_tags is invalid');
		expect(error.httpCode).toBe('400');
	});

	it('404 on an item names the item_id and explains item_id vs id', () => {
		const error = map(n8nRequestError(404, { error: 'Item not found' }), { subject: { kind: 'item', id: 912345 } });
		expect(error.message).toBe('Item with item_id 912345 was not found: Item not found');
		expect(error.description).toMatch(/"item_id".*not its "id"/);
	});

	it('404 on an address, a consignment and an order names them', () => {
		expect(map(n8nRequestError(404, { error: 'nope' }), { subject: { kind: 'address', id: '999' } }).message).toMatch(/^Address 999 was not found/);
		expect(map(n8nRequestError(404, {}), { subject: { kind: 'consignment', id: 'cons_1' } }).message).toBe('Consignment cons_1 was not found');
		const order = map(n8nRequestError(404, {}), { subject: { kind: 'order', id: 'TRR-1' } });
		expect(order.message).toBe('No order with platform SKU TRR-1 was found');
		expect(order.description).toMatch(/not your vendor_sku/);
	});

	it('413: at most 500 items per request', () => {
		const error = map(n8nRequestError(413, { error: 'Too many items' }));
		expect(error.message).toMatch(/at most 500 items per creation request/);
		expect(error.description).toMatch(/Too many items/);
	});

	it('429: rate limited, with the Retry-After seconds', () => {
		const error = map(n8nRequestError(429, { error: 'slow down' }, { 'retry-after': '7' }));
		expect(error.message).toBe('Rate limited by the service — retry after 7 seconds');
		expect(error.description).toMatch(/Max Requests per Second/);
		expect(map(n8nRequestError(429, '')).message).toBe('Rate limited by the service — wait before retrying');
	});

	it('5xx: the status, a try-again hint, and the service\'s message', () => {
		const error = map(n8nRequestError(503, { message: 'maintenance' }));
		expect(error.message).toBe('The service failed to process the request (HTTP 503) — try again later');
		expect(error.description).toMatch(/maintenance/);
	});

	it('any other status: the status and the service\'s message', () => {
		expect(map(n8nRequestError(409, { error: 'already cancelled' })).message).toBe('The service answered HTTP 409: already cancelled');
	});

	it('a network failure says the service could not be reached', () => {
		const error = map(connectionError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'));
		expect(error.message).toMatch(/could not be reached \(ECONNREFUSED\)/);
	});

	it('never carries the token: not in the message, description, context or the error it wraps', () => {
		const error = map(n8nRequestError(401, { message: `token Bearer ${LEAK_CANARY} is expired`, client_secret: 'shh' }));
		expect(everythingVisible(error)).not.toContain(LEAK_CANARY);
		expect(everythingVisible(error)).not.toContain('shh');
		expect(error.description).toMatch(/Bearer \[redacted\]/);
	});

	it('passes our own errors through (validation) and keeps the first mapping', () => {
		const validation = new NodeOperationError(FAKE_NODE, 'Item index 0: zipcode must be …');
		expect(toNodeApiError(FAKE_NODE, validation, { itemIndex: 0 })).toBe(validation);
		const once = map(n8nRequestError(404, {}), { subject: { kind: 'item', id: 1 } });
		expect(map(once)).toBe(once);
	});

	it('turns a non-request error into a NodeOperationError with its own message', () => {
		const error = toNodeApiError(FAKE_NODE, new Error('boom'), { itemIndex: 4 });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('boom');
	});
});

describe('readHttpFailure and serviceMessage', () => {
	it('reads a full response too (statusCode/body/headers)', () => {
		const failure = readHttpFailure({ statusCode: 404, body: { error: 'x' }, headers: {} });
		expect(failure.status).toBe(404);
	});

	it('reads the 207-style list of errors', () => {
		expect(serviceMessage({ error: [{ message: 'designer is invalid', vendor_sku: 'A1' }, { message: 'bad', vendor_sku: null }] })).toBe(
			'A1: designer is invalid; bad',
		);
	});
});

describe('a request without an answer, as n8n 1.x and 2.x wrap it', () => {
	it('the 1.x fake is what n8n-workflow 1.120 builds: no axios error left, its code as httpCode, the original text in messages', () => {
		// Recorded from n8n 1.123 (n8n-workflow 1.120.31): new NodeApiError(node, axiosError) for a POST whose
		// connection was reset after sending, and for one that timed out (axios 1.x's timeout code).
		const reset = n8n1ConnectionError('ECONNRESET', 'socket hang up');
		expect(reset.httpCode).toBe('ECONNRESET');
		expect(reset.message).toBe('The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.');
		expect(reset.messages[0]).toBe('socket hang up');
		expect((reset as { cause?: unknown }).cause).toBeUndefined();
		expect(JSON.stringify(reset)).not.toContain('isAxiosError');
		const timeout = n8n1ConnectionError('ECONNABORTED', 'timeout of 500ms exceeded');
		expect(timeout.httpCode).toBe('ECONNABORTED');
		expect(timeout.message).toBe('The connection was aborted, perhaps the server is offline');
		expect(timeout.messages[0]).toBe('timeout of 500ms exceeded');
	});

	const shapes = [
		['n8n 1.x', n8n1ConnectionError],
		['n8n 2.x', connectionError],
	] as const;

	it.each(shapes)('%s: a reset or a timed-out request reached the service; a refused or unresolvable one did not', (_version, wrap) => {
		for (const [code, text] of [['ECONNRESET', 'socket hang up'], ['ECONNABORTED', 'timeout of 500ms exceeded']]) {
			const failure = readHttpFailure(wrap(code, text));
			expect(failure).toMatchObject({ status: undefined, code, reachedService: true, message: text });
			expect(mayHaveBeenProcessed(failure, 'POST')).toBe(true);
		}
		for (const [code, text] of [['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'], ['ENOTFOUND', 'getaddrinfo ENOTFOUND api.invalid']]) {
			const failure = readHttpFailure(wrap(code, text));
			expect(failure).toMatchObject({ status: undefined, code });
			expect(mayHaveBeenProcessed(failure, 'POST')).toBe(false);
		}
	});

	it.each(shapes)('%s: a POST that timed out or was reset says its outcome is unknown, how to check, and never that nothing was created', (_version, wrap) => {
		const timeout = map(wrap('ECONNABORTED', 'timeout of 500ms exceeded'), { method: 'POST', subject: { kind: 'consignment', id: 'cons_1' } });
		expect(timeout.message).toBe('Outcome unknown — no answer came before the timeout, so it may have been carried out: check before sending it again');
		expect(timeout.description).toMatch(/Item → Get Many Non-Approved with Filters → Vendor SKU/);
		expect(timeout.description).toMatch(/Connection error: ECONNABORTED\./);
		const reset = map(wrap('ECONNRESET', 'socket hang up'), { method: 'POST', subject: { kind: 'order', id: 'TRR-1' } });
		expect(reset.message).toBe('Outcome unknown — the connection broke after the request was sent, so it may have been carried out: check before sending it again');
		expect(reset.description).toMatch(/vendor portal/);
		for (const error of [timeout, reset]) expect(`${error.message} ${error.description}`).not.toMatch(/nothing was|no item was|not created/i);
	});

	it.each(shapes)('%s: a GET that timed out says so, however the HTTP client names its timeout, and never blames the Base URL', (_version, wrap) => {
		for (const [code, text] of [['ECONNABORTED', 'timeout of 500ms exceeded'], ['ETIMEDOUT', 'timeout of 500ms exceeded']]) {
			const mapped = map(wrap(code, text), { method: 'GET' });
			expect(mapped.message).toBe('The request timed out: the service sent no answer, on the one attempt');
			expect(`${mapped.message} ${mapped.description}`).not.toMatch(/could not be reached|Base URL/);
		}
	});

	it('an update or deletion given up after an attempt that may have run: a refusal of the repeat is "outcome unknown"; a 401 or 429 keeps its own words and adds it', () => {
		const outcome = { attempts: 2, reason: 'notRetryable' as const, waitedMs: 600, rateLimited: 0, outcomeUnknown: true, noProgressLimitMs: 120_000, maxWaitMs: 900_000 };
		const refused = map(withOutcome(n8nRequestError(409, { error: 'Address 304 is inactive' }), outcome), { method: 'DELETE', subject: { kind: 'address', id: '304' } });
		expect(refused.message).toBe('Outcome unknown — an earlier attempt may have been carried out (no answer came, or a server error), and the service refused the repeat (HTTP 409)');
		expect(refused.description).toMatch(/Address → Get Many shows whether the address is still active/);
		const rejected = map(withOutcome(n8nRequestError(401, { message: 'Unauthorized' }), outcome), { method: 'DELETE', subject: { kind: 'address', id: '304' } });
		expect(rejected.message).toBe('Credentials rejected — check the Client ID/Secret in the credential');
		expect(rejected.description).toMatch(/^Outcome unknown: an earlier attempt of this update or deletion may have been carried out/);
		const limited = map(withOutcome(n8nRequestError(429, {}), { ...outcome, reason: 'pauseTooLong' as const, askedPauseMs: 3_600_000 }), { method: 'PATCH', subject: { kind: 'item', id: 1 } });
		expect(limited.message).toMatch(/^Rate limited by the service/);
		expect(limited.description).toMatch(/^Outcome unknown: an earlier attempt .* asked for a pause of 60 minutes/);
	});

	it('a timed-out read names its attempts, the time each waited and the setting; stopped by Max Wait per Request, it says that', () => {
		const outcome = { attempts: 4, reason: 'attemptsUsed' as const, waitedMs: 242_000, rateLimited: 0, outcomeUnknown: false, noProgressLimitMs: 120_000, maxWaitMs: 900_000, timeoutMs: 60_000 };
		const used = map(withOutcome(connectionError('ECONNABORTED', 'timeout of 60000ms exceeded'), outcome), { method: 'GET' });
		expect(used.message).toBe('The request timed out: the service sent no answer within 60 seconds, on each of 4 attempts');
		expect(used.description).toMatch(/^Request Options → Timeout sets how long each attempt waits for an answer \(60 seconds now\); a read, an update or a deletion is sent up to 4 times/);
		const stopped = map(withOutcome(connectionError('ETIMEDOUT', 'timeout of 60000ms exceeded'), { ...outcome, attempts: 2, reason: 'waitedTooLong' as const, maxWaitMs: 120_000, waitedMs: 120_000 }), { method: 'GET' });
		expect(stopped.message).toBe('The request timed out: the service sent no answer within 60 seconds, on each of 2 attempts');
		expect(stopped.description).toMatch(/Request Options → Max Wait per Request \(2 minutes\)/);
	});

	it('an error raised before anything was sent (the credential\'s token exchange, no code) keeps its own words and is not ambiguous', () => {
		const exchange = new NodeApiError(FAKE_NODE, Object.assign(new Error('Could not reach the Consignment Vendor token endpoint https://auth.example.com/api/v1/bearer-token: the connection was refused'), { description: 'Check the Auth URL' }) as never);
		Object.defineProperty(exchange, 'cause', { value: undefined, writable: true, enumerable: true, configurable: true });
		const failure = readHttpFailure(exchange);
		expect(failure.reachedService).toBe(false);
		expect(mayHaveBeenProcessed(failure, 'POST')).toBe(false);
		expect(map(exchange, { method: 'POST' })).toBe(exchange);
	});
});

describe('"Retry On Fail" is advised only where re-running the node repeats no write', () => {
	const advisesRetryOnFail = (error: NodeApiError) => /"Retry On Fail" in the node settings can absorb/.test(String(error.description));

	it('a 5xx of a read or an absolute PATCH may advise it', () => {
		expect(advisesRetryOnFail(map(n8nRequestError(502, {}), { method: 'GET' }))).toBe(true);
		expect(advisesRetryOnFail(map(n8nRequestError(503, {}), { method: 'PATCH' }))).toBe(true);
	});

	it('a POST never does: a 503 the service said to come back from, a 501, a 500, a refused connection', () => {
		const errors = [
			map(n8nRequestError(503, { error: 'maintenance' }, { 'retry-after': '30' }), { method: 'POST' }),
			map(n8nRequestError(501, {}), { method: 'POST' }),
			map(n8nRequestError(500, {}), { method: 'POST' }),
			map(connectionError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), { method: 'POST' }),
		];
		for (const error of errors) expect(advisesRetryOnFail(error)).toBe(false);
		// What it says instead: send only the failed items, because re-running sends every item again.
		for (const error of [errors[0], errors[1], errors[3]]) expect(error.description).toMatch(/Send only the failed items again/);
		expect(errors[2].message).toMatch(/^Outcome unknown/);
	});
});

describe('errors n8n throws from another copy of n8n-workflow than the package loaded', () => {
	// In a real install the package may resolve its own n8n-workflow (a peer install next to it, or a node_modules
	// further up the folders), so the NodeApiError n8n-core throws is not an instance of the package's class.
	function foreignNodeApiError(wrapped: Error): NodeApiError {
		let Foreign: typeof NodeApiError | undefined;
		jest.isolateModules(() => {
			Foreign = jest.requireActual<typeof import('n8n-workflow')>('n8n-workflow').NodeApiError;
		});
		expect(Foreign).not.toBe(NodeApiError);
		return new Foreign!(FAKE_NODE, wrapped as never);
	}

	it('a reset POST still says its outcome is unknown, on n8n 2.x\'s shape and 1.x\'s', () => {
		const reset = foreignNodeApiError(Object.assign(new Error('socket hang up'), { isAxiosError: true, code: 'ECONNRESET' }));
		expect(reset).not.toBeInstanceOf(NodeApiError);
		expect(map(reset, { method: 'POST' }).message).toMatch(/^Outcome unknown — the connection broke/);
		Object.defineProperty(reset, 'cause', { value: undefined, writable: true, enumerable: true, configurable: true });
		expect(map(reset, { method: 'POST' }).message).toMatch(/^Outcome unknown — the connection broke/);
	});

	it('an answer with an error status is worded as ours are', () => {
		const axiosError = Object.assign(new Error('Request failed with status code 404'), {
			isAxiosError: true,
			response: { status: 404, data: { error: 'no such item' }, headers: {} },
		});
		expect(map(foreignNodeApiError(axiosError), { subject: { kind: 'item', id: 5 } }).message).toBe('Item with item_id 5 was not found: no such item');
	});
});
