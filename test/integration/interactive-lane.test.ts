// Requests a person waits for do not queue behind a running bulk operation of the same credential (issue 17,
// finding 6): while Item → Update works through its rows at the pace its Request Options allow, the editor's list
// search and the trigger's activation (n8n-core's real HookContext) are sent at once, not after the rows the
// Update has queued. Judged from the order of the requests in the sandbox's log, not from timings.
import type { IDataObject, IHttpRequestOptions, ILoadOptionsFunctions } from 'n8n-workflow';

import { searchConsignments } from '../../nodes/ConsignmentVendor/shared/listSearch';
import { CredentialStore, sandboxCredential } from '../harness/credential-store';
import { testCredential } from '../harness/credential-test';
import type { RunningSandbox } from '../sandbox';
import { ITEM_PARAMETERS_FROM_JSON, validItem } from './item-input';
import { isTokenExchange, outputOf, runPackageNode } from './nodeRun.helpers';
import { useTriggerHosts } from './trigger.helpers';

const { sandbox, startHost } = useTriggerHosts();

const ROWS = 60;

/** A token of the sandbox client, exchanged outside this process's token cache. */
async function tokenOf(sb: RunningSandbox): Promise<string> {
	const exchange = await fetch(`${sb.authUrl}/api/v1/bearer-token`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ client_id: sb.clientId, client_secret: sb.clientSecret }),
	});
	return ((await exchange.json()) as { bearer_token: string }).bearer_token;
}

/** The editor's load-options context for the sandbox credential (the same queue as the workflow's node). */
async function loadOptionsContext(sb: RunningSandbox): Promise<ILoadOptionsFunctions> {
	const bearer = await tokenOf(sb);
	const httpRequestWithAuthentication = async (_type: string, options: IHttpRequestOptions) => {
		const url = new URL(`${options.baseURL}${options.url}`);
		for (const [key, value] of Object.entries(options.qs ?? {})) url.searchParams.set(key, String(value));
		const response = await fetch(url, { headers: { Authorization: `Bearer ${bearer}`, Accept: 'application/json' } });
		return { statusCode: response.status, headers: {}, body: (await response.json()) as IDataObject };
	};
	const credential = sandboxCredential(sb).data;
	return {
		getCredentials: async () => ({ baseUrl: credential.baseUrl, clientId: credential.clientId }),
		getNode: () => ({ id: 'n', name: 'Consignment Vendor', type: 'consignmentVendor', typeVersion: 1, position: [0, 0], parameters: {} }),
		helpers: { httpRequestWithAuthentication },
	} as unknown as ILoadOptionsFunctions;
}

async function until(condition: () => Promise<boolean>): Promise<void> {
	for (let tries = 0; tries < 200 && !(await condition()); tries++) await new Promise((resolve) => setTimeout(resolve, 25));
}

const itemPatch = (path: string) => path.startsWith('/v1/items/');

/** Starts Item → Update of ROWS rows at 10 req/s and resolves once its first PATCHes went out. */
async function startBulkUpdate(sb: RunningSandbox, store: CredentialStore) {
	const item = (await sb.admin.state()).items.find((candidate) => candidate.vendor_sku === 'SBX-1001');
	const rows = Array.from({ length: ROWS }, () => validItem('SBX-1001', { itemId: item!.item_id }));
	await sb.admin.clearRequests();
	const update = runPackageNode(
		store,
		{
			resource: 'item',
			operation: 'update',
			itemId: '={{ $json.itemId }}',
			fieldsToSend: 'all',
			...ITEM_PARAMETERS_FROM_JSON,
			// A known pace, so the Update has a queue (up to Max Concurrent Requests, 32) for a few seconds.
			requestOptions: { maxRequestsPerSecond: 10 },
		},
		rows,
	);
	await until(async () => (await logged(sb)).filter((request) => itemPatch(request.path)).length >= 3);
	// In an object: an async function returning the promise itself would wait for it.
	return { update };
}

async function logged(sb: RunningSandbox) {
	return (await sb.admin.requests()).filter((request) => !isTokenExchange(request));
}

/** Each request other than the Update's PATCHes, with the number of those PATCHes logged before it. */
async function otherRequests(sb: RunningSandbox) {
	const log = await logged(sb);
	const patchesBefore = (index: number) => log.slice(0, index).filter((request) => itemPatch(request.path)).length;
	return log.flatMap((request, index) => (itemPatch(request.path) ? [] : [{ request: `${request.method} ${request.path}`, patchesBefore: patchesBefore(index) }]));
}

it('during a bulk Update of the same credential, a list search and a trigger activation are sent before the rows the Update has queued', async () => {
	const sb = sandbox();
	const { update } = await startBulkUpdate(sb, new CredentialStore([sandboxCredential(sb)]));

	const host = await startHost();
	const [, search] = await Promise.all([host.activate(), searchConsignments.call(await loadOptionsContext(sb))]);
	const result = await update;

	expect(result.error).toBeUndefined();
	expect(outputOf(result)).toHaveLength(ROWS);
	expect(search.results.map((entry) => entry.value)).toContain('cons_12345');
	expect(host.isActive).toBe(true);
	const interactive = await otherRequests(sb);
	expect(interactive.map((entry) => entry.request)).toEqual(expect.arrayContaining(['GET /v1/consignments', 'GET /v1/vendor', 'PATCH /v1/vendor']));
	// Sent while the Update still had most of its queued rows to go (before: after all ~32 queued ones).
	for (const entry of interactive) expect(entry.patchesBefore).toBeLessThan(12);
}, 60_000);

it('the credential\'s Test is n8n\'s own declarative request, outside the package\'s queue: during a bulk Update it is sent at once', async () => {
	const sb = sandbox();
	// The stored token was exchanged earlier (as usual: tokens live an hour). A Test clicked within 3 s of this
	// process's own exchange fails instead ("rejected … moments after it was issued": sharedAccessToken.ts).
	const store = new CredentialStore([sandboxCredential(sb, { accessToken: await tokenOf(sb) })]);
	const { update } = await startBulkUpdate(sb, store);

	const tested = await testCredential(store, 'cred-1');
	await update;

	expect(tested).toEqual({ status: 'OK', message: 'Connection successful!' });
	const [check] = await otherRequests(sb);
	expect(check).toMatchObject({ request: 'GET /v1/vendor' });
	expect(check.patchesBefore).toBeLessThan(12);
}, 60_000);
