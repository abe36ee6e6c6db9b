import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { ConsignmentVendorApi } from '../../credentials/ConsignmentVendorApi.credentials';
import {
	forgetSharedAccessTokens,
	MIN_EXCHANGE_INTERVAL_MS,
	TokenReplacedError,
} from '../../credentials/sharedAccessToken';

/** The client secret used throughout; a distinctive string so any leak into an error is found. */
const CANARY = 'sEcReT-value-that-must-never-leak-42';
const AUTH_URL = 'https://auth.vendor.test';
const TOKEN_URL = 'https://auth.vendor.test/api/v1/bearer-token';

type Answer = { statusCode: number; body: unknown } | Error;

/**
 * A stand-in for n8n's `this.helpers.httpRequest` that records calls and answers from a script. Token exchanges
 * (POST) go to `calls`; token checks (GET /v1/vendor) to `checks`, answered 200 for the tokens in `valid`
 * (by default: only the last token issued, as a service with one active token per client), else 401.
 */
function fakeTokenService(...answers: Answer[]) {
	const calls: IHttpRequestOptions[] = [];
	const checks: string[] = [];
	const valid = new Set<string>();
	let issued = 0;
	const httpRequest = jest.fn(async (options: IHttpRequestOptions) => {
		if (options.method === 'GET') {
			const token = String((options.headers as Record<string, string>).Authorization).replace(/^Bearer /, '');
			checks.push(token);
			await new Promise((resolve) => setTimeout(resolve, 5));
			return { statusCode: valid.has(token) ? 200 : 401, body: {}, headers: {}, statusMessage: '' };
		}
		calls.push(options);
		// Let every concurrent caller reach the shared exchange before this one answers.
		await new Promise((resolve) => setTimeout(resolve, 5));
		const answer = answers.length > 0 ? answers.shift()! : defaultAnswer(++issued);
		if (answer instanceof Error) throw answer;
		const body = answer.body as { bearer_token?: unknown } | undefined;
		if (answer.statusCode === 200 && typeof body?.bearer_token === 'string') {
			valid.clear();
			valid.add(body.bearer_token);
		}
		return { ...answer, headers: {}, statusMessage: '' };
	});
	return { httpRequest, calls, checks, valid };
}

function defaultAnswer(n: number): Answer {
	return { statusCode: 200, body: { bearer_token: `token-${n}`, expires_in: 3600 } };
}

function credentials(overrides: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject {
	return {
		baseUrl: 'https://api.vendor.test',
		authUrl: AUTH_URL,
		clientId: 'client-1',
		clientSecret: CANARY,
		webhookSigningSecret: '',
		accessToken: '',
		...overrides,
	};
}

async function preAuth(
	service: ReturnType<typeof fakeTokenService>,
	creds: ICredentialDataDecryptedObject = credentials(),
) {
	const credentialType = new ConsignmentVendorApi();
	return await credentialType.preAuthentication.call({ helpers: { httpRequest: service.httpRequest } }, creds);
}

async function failureOf(promise: Promise<unknown>): Promise<Error & { description?: string }> {
	try {
		await promise;
	} catch (error) {
		return error as Error & { description?: string };
	}
	throw new Error('expected the token exchange to fail');
}

function expectNoSecretIn(error: Error & { description?: string }) {
	for (const text of [error.message, error.stack ?? '', error.description ?? '', JSON.stringify(error)]) {
		expect(text).not.toContain(CANARY);
	}
}

beforeEach(() => forgetSharedAccessTokens());
afterEach(() => jest.restoreAllMocks());

describe('ConsignmentVendorApi credential: description', () => {
	const credential = new ConsignmentVendorApi();

	it('has the agreed fields, with secrets as password fields and an expirable hidden token', () => {
		const byName = Object.fromEntries(credential.properties.map((p) => [p.name, p]));
		expect(Object.keys(byName)).toEqual([
			'baseUrl',
			'authUrl',
			'clientId',
			'clientSecret',
			'webhookSigningSecret',
			'accessToken',
		]);
		expect(byName.clientSecret.typeOptions?.password).toBe(true);
		expect(byName.webhookSigningSecret.typeOptions?.password).toBe(true);
		expect(byName.webhookSigningSecret.required).toBeFalsy();
		expect(byName.accessToken).toMatchObject({ type: 'hidden', default: '', typeOptions: { expirable: true } });
	});

	it('sends the stored token as a Bearer header and tests with GET /v1/vendor', async () => {
		const authenticate = credential.authenticate as (
			c: ICredentialDataDecryptedObject,
			o: IHttpRequestOptions,
		) => Promise<IHttpRequestOptions>;
		const sent = await authenticate(credentials({ accessToken: 'stored-token' }), {
			url: '/v1/items',
			headers: { Accept: 'application/json' },
		});
		expect(sent).toEqual({ url: '/v1/items', headers: { Accept: 'application/json', Authorization: 'Bearer stored-token' } });
		expect(credential.test.request).toMatchObject({ url: '/v1/vendor', method: 'GET' });
		const messages = (credential.test.rules ?? []).map((rule) => [rule.properties.value, rule.properties.message]);
		expect(messages).toEqual([
			[401, expect.stringContaining('Client ID and Client Secret')],
			[403, expect.stringContaining('permission')],
		]);
	});
});

describe('ConsignmentVendorApi credential: token exchange', () => {
	it('POSTs the client credentials as JSON to {authUrl}/api/v1/bearer-token', async () => {
		const service = fakeTokenService();
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'token-1' });
		expect(service.calls).toHaveLength(1);
		expect(service.calls[0]).toMatchObject({
			method: 'POST',
			url: TOKEN_URL,
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
			body: { client_id: 'client-1', client_secret: CANARY },
			json: true,
		});
	});

	it.each([
		['https://auth.vendor.test/'],
		['https://auth.vendor.test///'],
		['  https://auth.vendor.test/ '],
		['https://auth.vendor.test/api/v1/bearer-token'],
	])('tolerates the Auth URL %j', async (authUrl) => {
		const service = fakeTokenService();
		await preAuth(service, credentials({ authUrl }));
		expect(service.calls[0].url).toBe(TOKEN_URL);
	});

	it('reads the contract\'s bearer_token', async () => {
		const service = fakeTokenService({ statusCode: 200, body: { bearer_token: 'from-contract', expires_in: 3600 } });
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'from-contract' });
	});

	it('reads access_token where the service answers as its public docs show', async () => {
		const service = fakeTokenService({
			statusCode: 200,
			body: { access_token: 'from-docs', token_type: 'Bearer', expires_in: 3600 },
		});
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'from-docs' });
	});

	it('accepts a JSON body that arrives as a string', async () => {
		const service = fakeTokenService({ statusCode: 200, body: '{"bearer_token":"stringly","expires_in":3600}' });
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'stringly' });
	});
});

describe('ConsignmentVendorApi credential: one exchange shared by concurrent callers', () => {
	it('makes exactly one token request for 50 callers that start with an empty token', async () => {
		const service = fakeTokenService();
		const results = await Promise.all(Array.from({ length: 50 }, async () => await preAuth(service)));
		expect(service.httpRequest).toHaveBeenCalledTimes(1);
		expect(new Set(results.map((r) => r.accessToken))).toEqual(new Set(['token-1']));
	});

	it('serves callers that still hold an empty token after the exchange finished, without a new request', async () => {
		const service = fakeTokenService();
		await preAuth(service);
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'token-1' });
		expect(service.httpRequest).toHaveBeenCalledTimes(1);
	});

	it('never hands out a cached token past its expiry', async () => {
		const service = fakeTokenService({ statusCode: 200, body: { bearer_token: 'short', expires_in: 100 } });
		const start = Date.now();
		const now = jest.spyOn(Date, 'now').mockReturnValue(start);
		await preAuth(service);
		now.mockReturnValue(start + 89_000); // within lifetime minus the safety margin (10% of 100 s)
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'short' });
		now.mockReturnValue(start + 91_000);
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'token-1' });
		expect(service.httpRequest).toHaveBeenCalledTimes(2);
	});

	it('does not share a token between different clients or secrets', async () => {
		const service = fakeTokenService();
		await preAuth(service);
		await preAuth(service, credentials({ clientId: 'client-2' }));
		await preAuth(service, credentials({ clientSecret: `${CANARY}-regenerated` }));
		await preAuth(service, credentials({ authUrl: 'https://other-auth.vendor.test' }));
		expect(service.httpRequest).toHaveBeenCalledTimes(4);
	});

	it('exchanges again when the secret is regenerated between two requests of the same client', async () => {
		const service = fakeTokenService();
		await preAuth(service);
		await preAuth(service, credentials({ clientSecret: `${CANARY}-regenerated` }));
		expect(service.httpRequest).toHaveBeenCalledTimes(2);
	});
});

describe('ConsignmentVendorApi credential: refresh after the API rejected a token', () => {
	/** Moves Date.now past the minimum interval between two exchanges of one process. */
	function later(ms = MIN_EXCHANGE_INTERVAL_MS + 1) {
		const now = Date.now() + ms;
		jest.spyOn(Date, 'now').mockReturnValue(now);
	}

	async function authenticateWith(token: string) {
		const authenticate = new ConsignmentVendorApi().authenticate as (
			c: ICredentialDataDecryptedObject,
			o: IHttpRequestOptions,
		) => Promise<IHttpRequestOptions>;
		await authenticate(credentials({ accessToken: token }), { url: '/v1/vendor' });
	}

	it('exchanges a new token when called with the token the API rejected, and checks it before handing it back', async () => {
		const service = fakeTokenService();
		const first = await preAuth(service);
		later();
		const refreshed = await preAuth(service, credentials({ accessToken: String(first.accessToken) }));
		expect(refreshed).toEqual({ accessToken: 'token-2' });
		expect(service.calls).toHaveLength(2);
		expect(service.checks).toEqual(['token-2']);
	});

	it('refreshes once for many concurrent 401s, and later holders of the stale token get the new one', async () => {
		const service = fakeTokenService();
		await preAuth(service);
		later();
		const stale = credentials({ accessToken: 'token-1' });
		const refreshed = await Promise.all(Array.from({ length: 20 }, async () => await preAuth(service, { ...stale })));
		expect(new Set(refreshed.map((r) => r.accessToken))).toEqual(new Set(['token-2']));
		await expect(preAuth(service, { ...stale })).resolves.toEqual({ accessToken: 'token-2' });
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'token-2' });
		expect(service.calls).toHaveLength(2);
		// One check of the new token, one more for the late holder (a 401 is only answered with a checked token).
		expect(service.checks).toEqual(['token-2', 'token-2']);
	});

	it('after a 401, prefers a working token seen on a request (another process stored it) to an exchange', async () => {
		const service = fakeTokenService();
		await preAuth(service); // this process: token-1
		later();
		service.valid.clear();
		service.valid.add('other-process-token'); // another process's exchange revoked token-1
		await authenticateWith('other-process-token'); // n8n read it from the database for some request
		await expect(preAuth(service, credentials({ accessToken: 'token-1' }))).resolves.toEqual({
			accessToken: 'other-process-token',
		});
		expect(service.calls).toHaveLength(1);
		expect(service.checks).toEqual(['other-process-token']);
	});

	it('never answers a 401 with its own cached token unchecked: a revoked one is replaced', async () => {
		const service = fakeTokenService();
		await preAuth(service); // token-1, cached
		later();
		service.valid.clear(); // another process revoked token-1; its token is not known here
		// The request that got the 401 carried a token from the database that this process never had.
		await expect(preAuth(service, credentials({ accessToken: 'stale-from-database' }))).resolves.toEqual({
			accessToken: 'token-2',
		});
		expect(service.checks).toEqual(['token-1', 'token-2']);
		expect(service.calls).toHaveLength(2);
	});

	it('hands back its own cached token after a 401 for another token, when the API still accepts it', async () => {
		const service = fakeTokenService();
		await preAuth(service); // token-1, still valid
		await expect(preAuth(service, credentials({ accessToken: 'stale-from-database' }))).resolves.toEqual({
			accessToken: 'token-1',
		});
		expect(service.calls).toHaveLength(1);
		expect(service.checks).toEqual(['token-1']);
	});

	it('does not exchange again within the minimum interval: its token was replaced by another process (re-send)', async () => {
		const service = fakeTokenService();
		await preAuth(service); // token-1, exchanged just now
		service.valid.clear(); // already revoked by another process's exchange
		const error = await failureOf(preAuth(service, credentials({ accessToken: 'token-1' })));
		expect(error).toBeInstanceOf(TokenReplacedError);
		expect((error as TokenReplacedError).resendWithStoredToken).toBe(true);
		expect(service.calls).toHaveLength(1);
		expectNoSecretIn(error);
		later();
		await expect(preAuth(service, credentials({ accessToken: 'token-1' }))).resolves.toEqual({ accessToken: 'token-2' });
	});

	it('hands back the token it exchanged moments ago when the API still accepts it (the credential Test passes it too)', async () => {
		const service = fakeTokenService();
		await preAuth(service); // token-1, exchanged just now, still valid
		await expect(preAuth(service, credentials({ accessToken: 'token-1' }))).resolves.toEqual({ accessToken: 'token-1' });
		expect(service.calls).toHaveLength(1);
		expect(service.checks).toEqual(['token-1']);
		// And it is handed out again afterwards, not remembered as rejected.
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'token-1' });
		expect(service.calls).toHaveLength(1);
	});

	it('does not hand back a new token the API already rejects (another process exchanged in between)', async () => {
		const revokedAtOnce = fakeTokenService();
		const check = revokedAtOnce.httpRequest.getMockImplementation()!;
		revokedAtOnce.httpRequest.mockImplementation(async (options: IHttpRequestOptions) => {
			const answer = await check(options);
			if (options.method !== 'GET') revokedAtOnce.valid.clear(); // the other process's exchange lands
			return answer;
		});
		const error = await failureOf(preAuth(revokedAtOnce, credentials({ accessToken: 'expired' })));
		expect(error).toBeInstanceOf(TokenReplacedError);
		expect(revokedAtOnce.calls).toHaveLength(1);
		expect(revokedAtOnce.checks).toEqual(['token-1']);
	});

	it('exchanges a token it has never seen being rejected (stored by an earlier n8n process)', async () => {
		const service = fakeTokenService();
		await expect(preAuth(service, credentials({ accessToken: 'stored-last-week' }))).resolves.toEqual({
			accessToken: 'token-1',
		});
	});

	it('fails clearly instead of handing back the token that was just rejected', async () => {
		const service = fakeTokenService({ statusCode: 200, body: { bearer_token: 'same-again' } });
		const error = await failureOf(preAuth(service, credentials({ accessToken: 'same-again' })));
		expect(error.message).toContain(TOKEN_URL);
		expect(error.message).toContain('same access token the API had just rejected');
		expectNoSecretIn(error);
	});
});

describe('ConsignmentVendorApi credential: every request', () => {
	const authenticate = new ConsignmentVendorApi().authenticate as (c: ICredentialDataDecryptedObject, o: IHttpRequestOptions) => Promise<IHttpRequestOptions>;

	it('a request carrying the token the last one carried costs no hash of the secret (an export sends 10,000 pages)', async () => {
		const crypto = jest.requireActual<typeof import('crypto')>('crypto');
		const hashes = jest.spyOn(crypto, 'createHash');
		for (let page = 0; page < 100; page++) await authenticate(credentials({ accessToken: 'stored-token' }), { url: '/v1/items' });
		expect(hashes.mock.calls.length).toBeLessThanOrEqual(1);
	});

	it('still notes the token another request carries, and a token the API rejected is not taken up again', async () => {
		const service = fakeTokenService();
		await preAuth(service); // token-1
		jest.spyOn(Date, 'now').mockReturnValue(Date.now() + MIN_EXCHANGE_INTERVAL_MS + 1);
		service.valid.clear();
		service.valid.add('token-b');
		await authenticate(credentials({ accessToken: 'token-a' }), { url: '/v1/items' });
		await authenticate(credentials({ accessToken: 'token-b' }), { url: '/v1/items' });
		// After a 401 for token-1, the token the last request carried is checked first, and served.
		await expect(preAuth(service, credentials({ accessToken: 'token-1' }))).resolves.toEqual({ accessToken: 'token-b' });
		expect(service.checks).toEqual(['token-b']);
	});
});

describe('ConsignmentVendorApi credential: failed exchanges', () => {
	it('names the token URL, the HTTP status and the service message, without the secret', async () => {
		const service = fakeTokenService({
			statusCode: 401,
			body: { message: `Invalid client secret ${CANARY} for client-1` },
		});
		const error = await failureOf(preAuth(service));
		expect(error.message).toContain(TOKEN_URL);
		expect(error.message).toContain('HTTP 401');
		expect(error.message).toContain('Invalid client secret *** for client-1');
		expect(error.description).toContain('Client ID and Client Secret');
		expectNoSecretIn(error);
	});

	it('a 503 is tried again; a token endpoint that keeps failing is reported, without a message', async () => {
		const unavailable = { statusCode: 503, body: '' };
		const service = fakeTokenService(unavailable, unavailable, unavailable, unavailable);
		const error = await failureOf(preAuth(service));
		expect(service.calls).toHaveLength(4);
		expect(error.message).toBe(`The Consignment Vendor token endpoint ${TOKEN_URL} answered HTTP 503 without a message`);
		expect(error.description).toContain('Try again later');
		// Retry On Fail re-runs the whole node: for Create it would post the batches sent before the token failed.
		expect(error.description).not.toMatch(/Retry On Fail/);
	});

	it('a 429 from the token endpoint is waited out and the exchange succeeds', async () => {
		const service = fakeTokenService({ statusCode: 429, body: { message: 'slow down' } });
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'token-1' });
		expect(service.calls).toHaveLength(2);
	});

	it('every exchange request carries a timeout, so a hung token endpoint fails instead of blocking everyone', async () => {
		const service = fakeTokenService();
		await preAuth(service);
		expect(service.calls[0].timeout).toBe(30_000);
	});

	it('points at the Auth URL on a 404', async () => {
		const service = fakeTokenService({ statusCode: 404, body: '<html>Not Found</html>' });
		const error = await failureOf(preAuth(service));
		expect(error.message).toContain('HTTP 404');
		expect(error.description).toContain('appends /api/v1/bearer-token');
	});

	it('says the endpoint was unreachable, without the request config n8n\'s error carries', async () => {
		const transportError = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
			code: 'ECONNREFUSED',
			config: { data: JSON.stringify({ client_id: 'client-1', client_secret: CANARY }) },
			request: { body: { client_secret: CANARY } },
		});
		const service = fakeTokenService(transportError);
		const error = await failureOf(preAuth(service));
		expect(error.message).toBe(
			`Could not reach the Consignment Vendor token endpoint ${TOKEN_URL}: the connection was refused (nothing is listening at that address)`,
		);
		expect(error.description).toContain('Auth URL');
		expect(error).not.toBe(transportError);
		expect((error as { cause?: unknown }).cause).toBeUndefined();
		expectNoSecretIn(error);
	});

	// n8n's NodeApiError replaces a message containing one of these codes with a generic sentence (losing the URL).
	const CODES_N8N_REWORDS = ['ECONNREFUSED', 'ENOTFOUND', 'GETADDRINFO', 'EACCES', 'EAI_AGAIN', 'ETIMEDOUT'];

	it.each([
		['ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:443', 'the connection was refused'],
		['ENOTFOUND', 'getaddrinfo ENOTFOUND auth.vendor.test', 'host name could not be resolved'],
		['ECONNABORTED', 'timeout of 300000ms exceeded', 'timed out'],
		['EACCES', 'connect EACCES 10.0.0.1:443', 'failed before an answer arrived'],
		['EPROTO', 'write EPROTO', 'failed before an answer arrived (EPROTO)'],
		['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', 'TLS certificate was not accepted'],
	])('words a %s failure so n8n keeps the message', async (code, message, expected) => {
		const service = fakeTokenService(Object.assign(new Error(message), { code }));
		const error = await failureOf(preAuth(service));
		expect(error.message).toContain(TOKEN_URL);
		expect(error.message).toContain(expected);
		for (const reworded of CODES_N8N_REWORDS) expect(error.message.toUpperCase()).not.toContain(reworded);
	});

	it('rejects a 2xx answer without a token', async () => {
		const service = fakeTokenService({ statusCode: 200, body: { token_type: 'Bearer', expires_in: 3600 } });
		const error = await failureOf(preAuth(service));
		expect(error.message).toContain(TOKEN_URL);
		expect(error.message).toContain('without a token');
		expect(error.message).toContain('"bearer_token" or "access_token"');
	});

	it('shares one failed exchange between concurrent callers, and does not cache the failure', async () => {
		const service = fakeTokenService({ statusCode: 401, body: { message: 'Unauthorized' } });
		const outcomes = await Promise.allSettled(Array.from({ length: 10 }, async () => await preAuth(service)));
		expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
		expect(service.httpRequest).toHaveBeenCalledTimes(1);
		await expect(preAuth(service)).resolves.toEqual({ accessToken: 'token-1' });
		expect(service.httpRequest).toHaveBeenCalledTimes(2);
	});

	it.each([
		['authUrl', 'Auth URL'],
		['clientId', 'Client ID'],
		['clientSecret', 'Client Secret'],
	])('names the missing field %s before sending anything', async (field, label) => {
		const service = fakeTokenService();
		const error = await failureOf(preAuth(service, credentials({ [field]: '' })));
		expect(error.message).toContain(label);
		expect(service.httpRequest).not.toHaveBeenCalled();
	});
});
