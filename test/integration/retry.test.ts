// Retries through n8n's engine against the sandbox (the transport's queue, nodes/shared/transport): a 429 or a transient failure no longer
// fails a long Return All or a batch of new items; a POST that failed mid-way is never sent twice; retries stop.
// Faults are the sandbox's own (`admin.addFault`). To hit exactly the nth request of a run (page 3, batch 2),
// a small forwarding proxy between the node and the sandbox adds the fault just before forwarding that request.
import { CredentialStore, sandboxCredential } from '../harness';
import type { FaultSpec, RequestLogEntry, RunningSandbox } from '../sandbox';
import { addressParameters, validAddress } from './address-input';
import { ITEM_PARAMETERS_FROM_JSON, validItem } from './item-harness';
import { isTokenExchange, resultOf, runNode, useSandbox } from './nodeRun.helpers';
import { proxyToSandbox, type SandboxProxy } from './sandboxProxy.helpers';

const sandbox = useSandbox();

/**
 * Forwards every request to the sandbox unchanged; before forwarding the `nth` request with this method and
 * path, adds `fault` for exactly that path in the sandbox, so that request (and no other) meets it.
 */
async function faultOnNthRequest(
	target: RunningSandbox,
	match: { method: string; path: string; nth: number },
	fault: FaultSpec,
): Promise<SandboxProxy> {
	let seen = 0;
	return await proxyToSandbox(target, async (method, path) => {
		if (method === match.method && path === match.path && ++seen === match.nth) {
			await target.admin.addFault({ ...fault, method: match.method, pathPrefix: match.path });
		}
	});
}

/** A credential whose Base URL is the proxy (the token exchange still goes to the sandbox directly). */
function storeVia(proxy: SandboxProxy): CredentialStore {
	return new CredentialStore([sandboxCredential(sandbox(), { baseUrl: proxy.url })]);
}

const line = (request: RequestLogEntry) => `${request.method} ${request.path} ${request.status}`;
const itemsOf = (request: RequestLogEntry) => (request.body as { items: Array<{ vendor_sku: string }> }).items;

const createIn = (consignment: string) => ({
	resource: 'item',
	operation: 'create',
	consignmentId: { __rl: true, mode: 'id', value: consignment },
	...ITEM_PARAMETERS_FROM_JSON,
});

describe('Return All', () => {
	it('a 429 on page 3 of 6: the page is asked again after Retry-After, same cursor and filters; every record exactly once', async () => {
		const proxy = await faultOnNthRequest(sandbox(), { method: 'GET', path: '/v1/items', nth: 3 }, { kind: 'rateLimit', retryAfterSeconds: 1 });
		try {
			const started = Date.now();
			const { result, items, requests, allRequests } = await runNode(
				sandbox(),
				{ resource: 'item', operation: 'getAll', validationStatus: 'approved', returnAll: true, listOptions: { pageSize: 5 } },
				{ store: storeVia(proxy) },
			);
			const elapsed = Date.now() - started;

			expect(result.error).toBeUndefined();
			// 26 approved items, 5 per page: 6 pages, page 3 twice.
			expect(requests.map((request) => request.status)).toEqual([200, 200, 429, 200, 200, 200, 200]);
			expect(requests[3].query).toEqual(requests[2].query);
			expect(requests[3].query).toEqual({ validation_status: 'approved', page_size: '5', after: expect.any(String) });
			expect(new Set(requests.slice(3).map((request) => request.query.after)).size).toBe(4);
			expect(elapsed).toBeGreaterThanOrEqual(1000); // the service's Retry-After: 1 was honoured

			const approved = (await sandbox().admin.state()).items.filter((item) => item.validation_status === 'approved');
			expect(items.map((item) => item.json.item_id)).toEqual(approved.map((item) => item.item_id).sort((a, b) => Number(a) - Number(b)));
			expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
			expect(allRequests.filter(isTokenExchange)).toHaveLength(1);
		} finally {
			await proxy.close();
		}
	});

	it('a run of 429s is waited out, not counted as failed attempts: 10 refusals, then the listing completes', async () => {
		await sandbox().admin.addFault({ kind: 'rateLimit', count: 10, retryAfterSeconds: 0, pathPrefix: '/v1/consignments' });
		const { result, items, requests } = await runNode(sandbox(), { resource: 'consignment', operation: 'getAll', returnAll: true });

		expect(result.error).toBeUndefined();
		expect(requests.map(line)).toEqual([...Array(10).fill('GET /v1/consignments 429'), 'GET /v1/consignments 200']);
		expect(items).toHaveLength(3);
	});

	it('a service that keeps answering 429 is given up once nothing succeeded for Give Up After No Success For', async () => {
		await sandbox().admin.addFault({ kind: 'rateLimit', count: 1000, retryAfterSeconds: 1, pathPrefix: '/v1/consignments' });
		const started = Date.now();
		const { result, requests } = await runNode(sandbox(), {
			resource: 'consignment',
			operation: 'getAll',
			returnAll: true,
			requestOptions: { giveUpAfterNoSuccessSeconds: 3 },
		});

		expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
		expect(requests.length).toBeGreaterThanOrEqual(2);
		expect(requests.length).toBeLessThanOrEqual(5);
		expect(result.error?.message).toBe('Rate limited by the service — retry after 1 second');
		expect(result.error?.description).toMatch(/no request with this credential succeeded for 3 seconds/);
	});

	it('a Retry-After longer than the limits is not waited for: one request, the pause named in the message', async () => {
		await sandbox().admin.addFault({ kind: 'rateLimit', count: 10, retryAfterSeconds: 600, pathPrefix: '/v1/vendor/addresses' });
		const { result, requests } = await runNode(sandbox(), { resource: 'address', operation: 'getAll', returnAll: true });

		expect(requests).toHaveLength(1);
		expect(result.error?.message).toBe('Rate limited by the service — retry after 600 seconds');
		expect(result.error?.description).toMatch(/asked for a pause of 10 minutes, longer than the node's limits/);
	});
});

describe('one-request operations', () => {
	it('a 503 on Item → Update\'s PATCH is retried with the same body and succeeds', async () => {
		const pending = (await sandbox().admin.state()).items.find((item) => item.vendor_sku === 'SBX-1001')!;
		await sandbox().admin.addFault({ kind: 'status', status: 503, method: 'PATCH', pathPrefix: `/v1/items/${pending.item_id}` });
		const { result, items, requests } = await runNode(
			sandbox(),
			{ resource: 'item', operation: 'update', itemId: '={{ $json.itemId }}', fieldsToSend: 'all', ...ITEM_PARAMETERS_FROM_JSON },
			{ inputItems: [validItem('SBX-1001', { itemId: pending.item_id, price: 88800 })] },
		);

		expect(result.error).toBeUndefined();
		expect(requests.map(line)).toEqual([`PATCH /v1/items/${pending.item_id} 503`, `PATCH /v1/items/${pending.item_id} 200`]);
		expect(requests[1].body).toEqual(requests[0].body);
		expect(items).toEqual([{ json: { id: String(pending.item_id), status: 'updated' }, pairedItem: { item: 0 } }]);
	});

	it('a dropped connection on a GET is retried', async () => {
		await sandbox().admin.addFault({ kind: 'drop', pathPrefix: '/v1/vendor' });
		const { result, items, requests } = await runNode(sandbox(), { resource: 'vendor', operation: 'get' });

		expect(result.error).toBeUndefined();
		expect(requests.map(line)).toEqual(['GET /v1/vendor 0', 'GET /v1/vendor 200']);
		expect(items).toHaveLength(1);
	});

	it('a GET that keeps timing out is sent 4 times and says it timed out, per attempt, under Request Options → Timeout', async () => {
		await sandbox().admin.addFault({ kind: 'latency', ms: 1_500, count: 10, pathPrefix: '/v1/vendor' });
		const { result } = await runNode(sandbox(), { resource: 'vendor', operation: 'get', requestOptions: { timeout: 150 } });

		// The sandbox logs a request once it has answered it, after the delay, so the last attempts appear later.
		await new Promise((resolve) => setTimeout(resolve, 1_700));
		expect((await sandbox().admin.requests()).filter((request) => request.path === '/v1/vendor')).toHaveLength(4);
		expect(result.error?.message).toBe('The request timed out: the service sent no answer within 150 ms, on each of 4 attempts');
		expect(result.error?.description).toMatch(/Request Options → Timeout sets how long each attempt waits for an answer/);
		expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(/could not be reached|Base URL/);
	});

	it('a GET 500 is not retried (not a known transient failure)', async () => {
		await sandbox().admin.addFault({ kind: 'status', status: 500, pathPrefix: '/v1/vendor' });
		const { result, requests } = await runNode(sandbox(), { resource: 'vendor', operation: 'get' });

		expect(requests).toHaveLength(1);
		expect(result.error?.message).toBe('The service failed to process the request (HTTP 500) — try again later');
	});

	it('a 429 on a cancellation POST is retried (the service did not process it)', async () => {
		await sandbox().admin.addFault({ kind: 'rateLimit', retryAfterSeconds: 0, pathPrefix: '/v1/cancellations' });
		const { result, items, requests } = await runNode(sandbox(), { resource: 'order', operation: 'cancel', sku: 'TRR-ORD-000001' });

		expect(result.error).toBeUndefined();
		expect(requests.map(line)).toEqual(['POST /v1/cancellations 429', 'POST /v1/cancellations 200']);
		expect(items[0].json).toMatchObject({ sku: 'TRR-ORD-000001', status: 'cancelled' });
	});

	it('a 503 on Address → Create (a POST) is not retried: the outcome is unknown', async () => {
		await sandbox().admin.addFault({ kind: 'status', status: 503, pathPrefix: '/v1/vendor/addresses' });
		const address = addressParameters(validAddress());
		const { result, requests } = await runNode(sandbox(), { resource: 'address', operation: 'create', ...address });

		expect(requests.map(line)).toEqual(['POST /v1/vendor/addresses 503']);
		expect(result.error?.message).toBe('Outcome unknown — the service failed while handling the request (HTTP 503), so it may have been carried out: check before sending it again');
		expect(result.error?.description).toMatch(/Address → Get Many/);
	});
});

describe('Item → Create', () => {
	it('1,001 items with a 429 on the 2nd batch: that batch is sent again, 4 POSTs in all, every item created once', async () => {
		const path = '/v1/consignments/cons_67890/items';
		const proxy = await faultOnNthRequest(sandbox(), { method: 'POST', path, nth: 2 }, { kind: 'rateLimit', retryAfterSeconds: 0 });
		try {
			const rows = Array.from({ length: 1001 }, (_, n) => validItem(`RETRY-${n}`));
			const { result, items, requests } = await runNode(sandbox(), createIn('cons_67890'), { inputItems: rows, store: storeVia(proxy) });

			expect(result.error).toBeUndefined();
			expect(requests.map(line)).toEqual([`POST ${path} 200`, `POST ${path} 429`, `POST ${path} 200`, `POST ${path} 200`]);
			expect(requests.map((request) => itemsOf(request).length)).toEqual([500, 500, 500, 1]);
			expect(requests[2].body).toEqual(requests[1].body);
			expect(items).toHaveLength(1001);
			expect(items.every((item) => resultOf(item).status === 'submitted')).toBe(true);
			const created = (await sandbox().admin.state()).items.filter((item) => item.consignment_id === 'cons_67890');
			expect(created.map((item) => item.vendor_sku).sort()).toEqual(rows.map((row) => String(row.sku)).sort());
		} finally {
			await proxy.close();
		}
		// 1,001 items through n8n's engine are seconds of CPU: a loaded machine needs more than the default 30 s.
	}, 120_000);

	it('a 500 on a batch POST is not retried: each item of that batch says the outcome is unknown, the other batch is created', async () => {
		await sandbox().admin.addFault({ kind: 'status', status: 500, pathPrefix: '/v1/consignments/cons_12345/items' });
		const rows = ['cons_12345', '1001', 'cons_12345'].map((consignment, n) => validItem(`UNK-${n}`, { consignment }));
		const { result, items, requests } = await runNode(
			sandbox(),
			{ ...createIn(''), consignmentId: { __rl: true, mode: 'id', value: '={{ $json.consignment }}' } },
			{ inputItems: rows, settings: { onError: 'continueRegularOutput' } },
		);

		expect(result.error).toBeUndefined();
		expect(requests.map(line)).toEqual(['POST /v1/consignments/cons_12345/items 500', 'POST /v1/consignments/1001/items 200']);
		expect(items.map((item) => [resultOf(item).status, item.pairedItem])).toEqual([
			['failed', { item: 0 }],
			['submitted', { item: 1 }],
			['failed', { item: 2 }],
		]);
		expect(resultOf(items[1]).vendor_sku).toBe('UNK-1');
		for (const [index, failed] of [[0, items[0]], [2, items[2]]] as const) {
			expect(failed.json.error).toMatch(new RegExp(`^Item index ${index} \\(vendor_sku UNK-${index}\\): Outcome unknown — the service failed while handling the request \\(HTTP 500\\)`));
			expect(failed.json.message).toMatch(/To check: Item → Get Many Non-Approved with Filters → Vendor SKU set to each item.s SKU/);
		}
	});

	it('without Continue On Fail, the error says whether items may exist, not "nothing was created"', async () => {
		await sandbox().admin.addFault({ kind: 'drop', method: 'POST', pathPrefix: '/v1/consignments/cons_12345/items' });
		const { result, requests } = await runNode(sandbox(), createIn('cons_12345'), { inputItems: [validItem('DROP-1'), validItem('DROP-2')] });

		expect(requests.map(line)).toEqual(['POST /v1/consignments/cons_12345/items 0']);
		expect(result.error?.message).toMatch(/^2 of 2 items failed\. Item index 0 \(vendor_sku DROP-1\), item index 1 \(vendor_sku DROP-2\): Outcome unknown — the connection broke/);
		expect(result.error?.description).toMatch(/^Outcome unknown for 2 of the failed item\(s\)/);
		expect(result.error?.description).toMatch(/Connection error: (ECONNRESET|socket hang up)/);
		expect(result.error?.description).not.toMatch(/No item was created or changed/);
	});
});

describe('Item → Create or Update', () => {
	it('a 503 on the PATCH of a found item is retried and the item is updated', async () => {
		await sandbox().admin.addFault({ kind: 'status', status: 503, method: 'PATCH', pathPrefix: '/v1/items/' });
		const { result, items, requests } = await runNode(
			sandbox(),
			{ ...createIn('cons_12345'), operation: 'upsert' },
			{ inputItems: [validItem('SBX-1001', { price: 77700, quantity: 1 })] },
		);

		expect(result.error).toBeUndefined();
		expect(requests.map((request) => `${request.method} ${request.status}`)).toEqual(['GET 200', 'PATCH 503', 'PATCH 200']);
		expect(items[0].json).toMatchObject({ operation: 'updated', vendor_sku: 'SBX-1001', price: 77700 });
		expect((await sandbox().admin.state()).items.find((item) => item.vendor_sku === 'SBX-1001')?.price).toBe(77700);
	});
});
