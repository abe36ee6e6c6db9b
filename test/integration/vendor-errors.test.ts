// What a user sees when the API fails, through n8n-core against the sandbox: n8n's own refresh on a 401 still
// works with the error mapping in place, and 401-after-refresh, 403, 400, 404, 429 and 5xx read as actionable
// messages without any token in them.
import { MIN_EXCHANGE_INTERVAL_MS } from '../../credentials/sharedAccessToken';
import { CredentialStore, sandboxCredential } from '../harness';
import { NON_VENDOR_CLIENT } from '../sandbox';
import { isTokenExchange, locator, runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

describe('errors and the token refresh', () => {
	it('a revoked token: n8n exchanges a new one once, retries, and the operation succeeds', async () => {
		const store = new CredentialStore([sandboxCredential(sandbox())]);
		await runNode(sandbox(), { resource: 'vendor', operation: 'get' }, { store });
		await sandbox().admin.addFault({ kind: 'revokeTokens', pathPrefix: '/v1/vendor' });
		// A later run (not moments after the exchange, when the cache would wait for another process's token).
		await new Promise((resolve) => setTimeout(resolve, MIN_EXCHANGE_INTERVAL_MS));
		const { result, items, allRequests } = await runNode(sandbox(), { resource: 'vendor', operation: 'get' }, { store });
		expect(result.error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(allRequests.map((r) => [r.path.startsWith('/auth/') ? 'token' : r.path, r.status])).toEqual([
			['/v1/vendor', 401],
			['token', 200],
			['/v1/vendor', 200], // the check of the new token
			['/v1/vendor', 200],
		]);
	});

	it('401 whatever token is sent: sent again a few times, then an error naming both causes, no token in the error', async () => {
		const store = new CredentialStore([sandboxCredential(sandbox())]);
		await sandbox().admin.addFault({ kind: 'status', status: 401, count: 50, pathPrefix: '/v1/vendor' });
		const { result, allRequests } = await runNode(sandbox(), { resource: 'vendor', operation: 'get' }, { store });
		// Each new token is rejected at once, which is also what another n8n process replacing it looks like.
		expect(result.error?.message).toBe('The Consignment Vendor API rejected an access token (HTTP 401) moments after it was issued');
		expect(result.error?.description).toMatch(/another n8n process .* or the Base URL and the Auth URL belong to different environments/);
		// The request and n8n's retry, then 3 re-sends by the queue; exchanges at most one per 3 s.
		expect(allRequests.filter(isTokenExchange).length).toBeGreaterThanOrEqual(1);
		expect(allRequests.filter(isTokenExchange).length).toBeLessThanOrEqual(4);
		expect(allRequests.every((r) => isTokenExchange(r) || r.status === 401)).toBe(true);
		await sandbox().admin.clearFaults();
		const tokens = store.writes.map((w) => String(w.data.accessToken)).filter(Boolean);
		expect(tokens.length).toBeGreaterThan(0);
		const shown = JSON.stringify({ m: result.error?.message, d: result.error?.description, c: result.error?.context, x: result.error });
		for (const token of tokens) expect(shown).not.toContain(token);
		expect(shown).not.toContain(sandbox().clientSecret);
	});

	it('a wrong client secret: the credential\'s own explanation reaches the user', async () => {
		const store = new CredentialStore([sandboxCredential(sandbox(), { clientSecret: 'wrong-secret' })]);
		const { result, requests } = await runNode(sandbox(), { resource: 'vendor', operation: 'get' }, { store });
		expect(requests).toHaveLength(0);
		expect(result.error?.message).toMatch(/token endpoint .* answered HTTP 401/);
		expect(JSON.stringify(result.error)).not.toContain('wrong-secret');
	});

	it('403 (a client that is not a vendor user): permission denied, vendor permissions', async () => {
		const store = new CredentialStore([
			sandboxCredential(sandbox(), { clientId: NON_VENDOR_CLIENT.clientId, clientSecret: NON_VENDOR_CLIENT.clientSecret }),
		]);
		const { result } = await runNode(sandbox(), { resource: 'address', operation: 'getAll', returnAll: true }, { store });
		expect(result.error?.message).toBe('Permission denied — the API user needs vendor permissions');
		expect(result.error?.description).toMatch(/This token does not belong to a vendor user/);
	});

	it('400: the service\'s error text', async () => {
		await sandbox().admin.addFault({ kind: 'status', status: 400, pathPrefix: '/v1/cancellations' });
		const { result } = await runNode(sandbox(), { resource: 'order', operation: 'cancel', sku: 'TRR-ORD-000001' });
		expect(result.error?.message).toBe('The service rejected the request: Injected fault');
	});

	it('404 on a list page, mapped inside the paginator too', async () => {
		// Twice: a 4xx to the first page of the node's own 100 is asked again with 20 (pagination.ts), and refused too.
		await sandbox().admin.addFault({ kind: 'status', status: 404, pathPrefix: '/v1/consignments', count: 2 });
		const { result, requests } = await runNode(sandbox(), { resource: 'consignment', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe('The requested record was not found: Injected fault');
		expect(requests.map((r) => [r.query.page_size, r.status])).toEqual([
			['100', 404],
			['20', 404],
		]);
	});

	it('429: rate limited, retry after the service\'s Retry-After', async () => {
		// Longer than the node's limits (Request Options): shorter pauses are waited out (test/integration/retry.test.ts).
		await sandbox().admin.addFault({ kind: 'rateLimit', retryAfterSeconds: 300, pathPrefix: '/v1/vendor' });
		const { result } = await runNode(sandbox(), { resource: 'vendor', operation: 'get' });
		expect(result.error?.message).toBe('Rate limited by the service — retry after 300 seconds');
	});

	it('5xx: the status and a try-again hint; with Continue On Fail an error item per failed input item', async () => {
		// A 500, which the node does not retry (a 503 would be retried: test/integration/retry.test.ts).
		await sandbox().admin.addFault({ kind: 'status', status: 500, pathPrefix: '/v1/consignments/' });
		const { items } = await runNode(
			sandbox(),
			{ resource: 'consignment', operation: 'get', consignmentId: locator('={{ $json.id }}', 'id') },
			{ inputItems: [{ id: 'cons_12345' }, { id: '1001' }], settings: { continueOnFail: true } },
		);
		expect(items).toHaveLength(2);
		const messages = items.map((i) => String(i.json.error ?? ''));
		expect(messages.filter((m) => m === 'The service failed to process the request (HTTP 500) — try again later')).toHaveLength(1);
		expect(items.filter((i) => i.json.id !== undefined)).toHaveLength(1);
	});
});
