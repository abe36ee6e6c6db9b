// The run's held token (nodes/shared/transport/heldToken.ts) through n8n's engine against the sandbox: a long
// listing has n8n load the credential a few times per run, not once per page (in real n8n 2.x each load is a
// database read, a decryption and, in a poll, an expression isolate), and a token that stops working mid-run
// (expired, revoked, or replaced by another n8n process: one active token per client) costs no record.
import { CredentialStore, sandboxCredential, SANDBOX_CREDENTIAL_ID, type HarnessCredential } from '../harness';
import type { RequestLogEntry, RunningSandbox } from '../sandbox';
import { isTokenExchange, runNode, useSandbox } from './nodeRun.helpers';
import { proxyToSandbox, type SandboxProxy } from './sandboxProxy.helpers';

const sandbox = useSandbox();

/** Enough approved items for 16+ pages of 5. */
beforeEach(async () => {
	await sandbox().admin.seedManyItems({ count: 60, status: 'approved', skuPrefix: 'HELD-' });
});

/** The credentials table, counting how often n8n reads the credential from it (each a database read in n8n). */
class CountingStore extends CredentialStore {
	reads = 0;

	override get(id: string): HarnessCredential {
		this.reads++;
		return super.get(id);
	}
}

const PAGE_SIZE = 5;
const approvedPages = { resource: 'item', operation: 'getAll', validationStatus: 'approved', returnAll: true, listOptions: { pageSize: PAGE_SIZE } };
const listingPages = (requests: RequestLogEntry[]) => requests.filter((r) => r.method === 'GET' && r.path === '/v1/items' && r.status === 200);

async function approvedIds(target: RunningSandbox): Promise<number[]> {
	const { items } = await target.admin.state();
	return items.filter((i) => i.validation_status === 'approved').map((i) => i.item_id).sort((a, b) => a - b);
}

/**
 * Forwards to the sandbox; before forwarding the `nth` listing request, runs `before` (another process's doing).
 * The token exchange does not pass through it (the Auth URL stays the sandbox's).
 */
async function proxyRunningBefore(target: RunningSandbox, nth: number, before: () => Promise<void>): Promise<SandboxProxy> {
	let seen = 0;
	return await proxyToSandbox(target, async (method, path) => {
		if (method === 'GET' && path === '/v1/items' && ++seen === nth) await before();
	});
}

/** Another n8n process exchanging a token (with one active token per client: ours stops working) and storing it. */
async function anotherProcessReplacesTheToken(target: RunningSandbox, store: CredentialStore): Promise<string> {
	const answer = await fetch(`${target.authUrl}/api/v1/bearer-token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: target.clientId, client_secret: target.clientSecret }),
	});
	const token = ((await answer.json()) as { bearer_token: string }).bearer_token;
	store.patch(SANDBOX_CREDENTIAL_ID, { accessToken: token });
	return token;
}

describe('the token held for a run', () => {
	it('Return All of many pages: every record once, the credential loaded a few times, not once per page', async () => {
		const target = sandbox();
		const store = new CountingStore([sandboxCredential(target)]);
		const { result, items, requests, allRequests } = await runNode(target, approvedPages, { store });
		expect(result.error).toBeUndefined();
		expect(items.map((i) => i.json.item_id)).toEqual(await approvedIds(target));
		const pages = listingPages(requests).length;
		expect(pages).toBeGreaterThanOrEqual(16);
		expect(allRequests.filter(isTokenExchange)).toHaveLength(1);
		// The node's own loads and the exchange's (about 7 here), not one more per page (before: 22 for 16 pages).
		expect(store.reads).toBeLessThanOrEqual(8);
	});

	it('the token replaced by another process mid-run (one active token per client): every record once, its token taken, no exchange of ours', async () => {
		const target = sandbox();
		await target.admin.setOneActiveTokenPerClient(true);
		// A run that stored a token, as n8n keeps it between runs.
		const store = new CountingStore([sandboxCredential(target)]);
		expect((await runNode(target, { resource: 'vendor', operation: 'get' }, { store })).result.error).toBeUndefined();
		const before = String(store.get(SANDBOX_CREDENTIAL_ID).data.accessToken);
		expect(before).not.toBe('');

		let replacement = '';
		const proxy = await proxyRunningBefore(target, 3, async () => {
			replacement = await anotherProcessReplacesTheToken(target, store);
		});
		try {
			store.patch(SANDBOX_CREDENTIAL_ID, { baseUrl: proxy.url });
			store.reads = 0;
			const { result, items, requests, allRequests } = await runNode(target, approvedPages, { store });
			expect(result.error).toBeUndefined();
			expect(items.map((i) => i.json.item_id)).toEqual(await approvedIds(target));
			// The page refused with the replaced token was asked again and answered; then the run went on.
			expect(requests.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(1);
			expect(listingPages(requests).length).toBeGreaterThanOrEqual(16);
			// Ours did not exchange (that would revoke the other process's token): the exchange seen is the other one's.
			expect(allRequests.filter(isTokenExchange)).toHaveLength(1);
			expect(store.get(SANDBOX_CREDENTIAL_ID).data.accessToken).toBe(replacement);
			expect(replacement).not.toBe(before);
			// The new token read once after the refusal, not for every page after it.
			console.log({ reads: store.reads });
			expect(store.reads).toBeLessThanOrEqual(10);
		} finally {
			await proxy.close();
		}
	});
});
