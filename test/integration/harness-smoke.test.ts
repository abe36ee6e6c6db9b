// Proves the harness runs a declarative node through n8n-core's real engine against the sandbox, with the real
// credential: one token exchange for many items, the stored token reused by the next run, n8n-core's refresh
// after a 401, and a clear, secret-free error for a wrong client secret.
import {
	NodeConnectionTypes,
	type INodeType,
	type INodeTypeDescription,
	type NodeApiError,
} from 'n8n-workflow';

import {
	buildWorkflow,
	CredentialStore,
	forgetSchedulers,
	forgetSharedAccessTokens,
	packageNodeType,
	runWorkflow,
	sandboxCredential,
	testCredential,
	type NodeSettings,
} from '../harness';
import { NON_VENDOR_CLIENT, startSandbox, type RequestLogEntry } from '../sandbox';
import { isTokenExchange, useSandbox } from './nodeRun.helpers';

const PROBE = 'Vendor Probe';

/** A minimal declarative node: GET /v1/vendor per item, with an expression-driven query parameter. */
class VendorProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Vendor Probe',
		name: 'vendorProbe',
		group: ['transform'],
		version: 1,
		description: 'Reads the vendor profile (harness smoke test)',
		defaults: { name: PROBE },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'consignmentVendorApi', required: true }],
		requestDefaults: {
			baseURL: '={{$credentials.baseUrl}}',
			headers: { Accept: 'application/json' },
		},
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Get Vendor',
						value: 'get',
						action: 'Get the vendor',
						routing: { request: { method: 'GET', url: '/v1/vendor' } },
					},
				],
				default: 'get',
			},
			{
				displayName: 'Probe',
				name: 'probe',
				type: 'string',
				default: '',
				routing: { send: { type: 'query', property: 'probe' } },
			},
		],
	};
}

const sandbox = useSandbox();

function probeWorkflow(store: CredentialStore, settings?: NodeSettings) {
	return buildWorkflow({
		type: packageNodeType('vendorProbe'),
		name: PROBE,
		parameters: { operation: 'get', probe: '={{ $json.n }}' },
		credential: store.get('cred-1'),
		settings,
	});
}

async function runProbe(store: CredentialStore, itemCount: number, settings?: NodeSettings) {
	return await runWorkflow(probeWorkflow(store, settings), {
		credentials: store,
		nodeTypes: [new VendorProbe()],
		inputItems: Array.from({ length: itemCount }, (_, n) => ({ n })),
	});
}

const tokenRequests = (log: RequestLogEntry[]) => log.filter(isTokenExchange);
const vendorRequests = (log: RequestLogEntry[]) => log.filter((r) => r.path === '/v1/vendor');

describe('harness smoke test: a declarative node through n8n-core against the sandbox', () => {
	it('runs 50 items with exactly one token exchange, one output per item, expressions evaluated', async () => {
		const store = new CredentialStore([sandboxCredential(sandbox())]);
		const result = await runProbe(store, 50);

		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('success');
		const items = result.outputs[PROBE][0];
		expect(items).toHaveLength(50);
		expect(items[0].json).toHaveProperty('webhook_url');
		expect(items.map((item) => item.pairedItem)).toEqual(Array.from({ length: 50 }, (_, item) => ({ item })));

		const log = await sandbox().admin.requests();
		expect(tokenRequests(log)).toHaveLength(1);
		expect(tokenRequests(log)[0]).toMatchObject({ method: 'POST', status: 200 });
		const vendor = vendorRequests(log);
		expect(vendor).toHaveLength(50);
		expect(vendor.every((r) => r.authorized && r.status === 200)).toBe(true);
		expect(vendor.map((r) => Number(r.query.probe)).sort((a, b) => a - b)).toEqual(
			Array.from({ length: 50 }, (_, n) => n),
		);
		// n8n persisted the token into the credential, as its cli does into the database.
		expect(store.get('cred-1').data.accessToken).toMatch(/\S+/);
	});

	it('reuses the stored token on the next run: no new exchange', async () => {
		const store = new CredentialStore([sandboxCredential(sandbox())]);
		await runProbe(store, 3);
		const storedToken = store.get('cred-1').data.accessToken;
		await sandbox().admin.clearRequests();
		// A new n8n process would have no in-memory token: what the second run uses comes from the store.
		forgetSharedAccessTokens();
		forgetSchedulers();
		const second = await runProbe(store, 5);
		expect(second.error).toBeUndefined();
		expect(second.outputs[PROBE][0]).toHaveLength(5);
		const log = await sandbox().admin.requests();
		expect(tokenRequests(log)).toHaveLength(0);
		expect(vendorRequests(log).every((r) => r.status === 200)).toBe(true);
		expect(store.get('cred-1').data.accessToken).toBe(storedToken);
	});

	it('after the token expires, gets a 401, exchanges exactly once more and succeeds', async () => {
		const store = new CredentialStore([sandboxCredential(sandbox())]);
		await runProbe(store, 1);
		const expiredToken = store.get('cred-1').data.accessToken;
		await sandbox().admin.advanceClock(3601);
		await sandbox().admin.clearRequests();
		// An hour passed on the sandbox clock only: without this, the cache would see its token rejected moments after
		// the exchange and wait for another process's token (credentials/sharedAccessToken.ts).
		forgetSharedAccessTokens();

		const result = await runProbe(store, 50);
		expect(result.error).toBeUndefined();
		expect(result.outputs[PROBE][0]).toHaveLength(50);
		const log = await sandbox().admin.requests();
		const vendor = vendorRequests(log);
		expect(vendor.filter((r) => r.status === 401)).toHaveLength(50);
		// 50 retried requests, and one check of the new token before it answered the 401s.
		expect(vendor.filter((r) => r.status === 200)).toHaveLength(51);
		expect(tokenRequests(log)).toHaveLength(1);
		const refreshedToken = store.get('cred-1').data.accessToken;
		expect(refreshedToken).toMatch(/\S+/);
		expect(refreshedToken).not.toBe(expiredToken);
	});

	it('fails a wrong client secret with one exchange and an error naming the token URL and status, not the secret', async () => {
		const canary = 'not-the-sandbox-one-7f3a9c';
		const store = new CredentialStore([sandboxCredential(sandbox(), { clientSecret: canary })]);
		const result = await runProbe(store, 5);

		expect(result.run.status).toBe('error');
		const error = result.error as NodeApiError;
		expect(error).toBeDefined();
		expect(error.message).toContain(`${sandbox().authUrl}/api/v1/bearer-token`);
		expect(error.message).toContain('HTTP 401');
		expect(error.description).toContain('Client ID and Client Secret');
		for (const text of [error.message, error.description ?? '', error.stack ?? '', JSON.stringify(error)]) {
			expect(text).not.toContain(canary);
		}
		const log = await sandbox().admin.requests();
		expect(tokenRequests(log)).toHaveLength(1);
		expect(vendorRequests(log)).toHaveLength(0);
	});

	it('gives each item an error item under "Continue (using regular output)"', async () => {
		const canary = 'not-the-sandbox-one-1b2c';
		const store = new CredentialStore([sandboxCredential(sandbox(), { clientSecret: canary })]);
		const result = await runProbe(store, 3, { onError: 'continueRegularOutput' });

		expect(result.error).toBeUndefined();
		const items = result.outputs[PROBE][0];
		expect(items).toHaveLength(3);
		for (const item of items) {
			expect(String(item.json.error)).toContain('HTTP 401');
			expect(JSON.stringify(item)).not.toContain(canary);
		}
	});

	it('tolerates trailing slashes in the Base URL and the Auth URL', async () => {
		const store = new CredentialStore([
			sandboxCredential(sandbox(), { baseUrl: `${sandbox().baseUrl}/`, authUrl: `${sandbox().authUrl}//` }),
		]);
		const result = await runProbe(store, 2);

		expect(result.error).toBeUndefined();
		const log = await sandbox().admin.requests();
		expect(tokenRequests(log)).toHaveLength(1);
		expect(vendorRequests(log).map((r) => r.status)).toEqual([200, 200]);
	});

	it('says the token endpoint was unreachable, without the secret n8n\'s request error carries', async () => {
		const canary = 'unreachable-canary-55e1';
		const closed = await startSandbox({ port: 0 });
		const unreachableAuthUrl = `${closed.authUrl}`;
		await closed.close();
		const store = new CredentialStore([
			sandboxCredential(sandbox(), { authUrl: unreachableAuthUrl, clientSecret: canary }),
		]);
		const result = await runProbe(store, 1);

		const error = result.error as NodeApiError;
		expect(error.message).toContain(`Could not reach the Consignment Vendor token endpoint ${unreachableAuthUrl}/api/v1/bearer-token`);
		expect(error.message).toContain('the connection was refused');
		for (const text of [error.message, error.description ?? '', error.stack ?? '', JSON.stringify(error)]) {
			expect(text).not.toContain(canary);
		}
	});
});

describe('harness smoke test: the credential\'s Test button, as n8n runs it', () => {
	it('succeeds with the sandbox client, after a fresh token exchange', async () => {
		const store = new CredentialStore([sandboxCredential(sandbox(), { accessToken: 'stale-from-last-week' })]);
		await expect(testCredential(store, 'cred-1')).resolves.toEqual({ status: 'OK', message: 'Connection successful!' });
		const log = await sandbox().admin.requests();
		expect(tokenRequests(log)).toHaveLength(1);
		// The stored token counts as rejected: the new one is checked, then the test request is sent.
		expect(vendorRequests(log).map((r) => r.status)).toEqual([200, 200]);
	});

	it('tells the user to check the permissions when the API answers 403', async () => {
		const store = new CredentialStore([
			sandboxCredential(sandbox(), { clientId: NON_VENDOR_CLIENT.clientId, clientSecret: NON_VENDOR_CLIENT.clientSecret }),
		]);
		const result = await testCredential(store, 'cred-1');
		expect(result.status).toBe('Error');
		expect(result.message).toContain('HTTP 403');
		expect(result.message).toContain('permission');
	});

	it('reports a wrong client secret with the token URL and status, not the secret', async () => {
		const canary = 'not-the-sandbox-one-9d8e';
		const store = new CredentialStore([sandboxCredential(sandbox(), { clientSecret: canary })]);
		const result = await testCredential(store, 'cred-1');
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`${sandbox().authUrl}/api/v1/bearer-token answered HTTP 401`);
		expect(result.message).not.toContain(canary);
	});
});
