// Writes whose outcome is unknown (a POST whose connection broke after it was sent, or that got no answer before
// the timeout) are reported as unknown, on n8n 2.x's error shape (ambiguous-writes.test.ts) and on n8n 1.x's
// (ambiguous-writes-n8n1.test.ts, where NodeApiError keeps only httpCode/message/description). The sandbox's
// `drop` fault closes the connection after the request arrived; a `latency` fault longer than the node's
// Timeout makes the node give up while the sandbox goes on and carries the request out.
import type { INodeParameters } from 'n8n-workflow';

import { CredentialStore, sandboxCredential } from '../harness';
import type { RequestLogEntry, RunningSandbox } from '../sandbox';
import { addressParameters, validAddress } from './address-input';
import { CONTINUE_ON_FAIL, ITEM_PARAMETERS_FROM_JSON, validItem } from './item-harness';
import { resultOf, runNode, useSandbox } from './nodeRun.helpers';

const ITEMS_PATH = '/v1/consignments/cons_12345/items';
const ADDRESSES_PATH = '/v1/vendor/addresses';
const CANCELLATIONS_PATH = '/v1/cancellations';

/** The node's Timeout (n8n's Request Options → Timeout, ms), and the sandbox's delay that outlasts it. */
const TIMEOUT_MS = 400;
const SLOW_ANSWER_MS = 1_500;

const CREATE: INodeParameters = {
	resource: 'item',
	operation: 'create',
	consignmentId: { __rl: true, mode: 'id', value: 'cons_12345' },
	...ITEM_PARAMETERS_FROM_JSON,
};

const ADDRESS_CREATE: INodeParameters = {
	resource: 'address',
	operation: 'create',
	...addressParameters(validAddress()),
};

const ORDER_CANCEL: INodeParameters = { resource: 'order', operation: 'cancel', sku: 'TRR-ORD-000001' };

const BROKE = 'Outcome unknown — the connection broke after the request was sent, so it may have been carried out: check before sending it again';
const TIMED_OUT = 'Outcome unknown — no answer came before the timeout, so it may have been carried out: check before sending it again';
const NOTHING_CREATED = /no item was created|nothing was (sent|created)|not created/i;

const line = (request: RequestLogEntry) => `${request.method} ${request.path} ${request.status}`;

const withTimeout = (parameters: INodeParameters): INodeParameters => ({ ...parameters, requestOptions: { timeout: TIMEOUT_MS } });

/**
 * The POSTs to `path` the sandbox logged, once the slow one the node gave up on is answered too (the sandbox logs a
 * request when it answers it, and goes on after the client left).
 */
async function postsTo(sandbox: RunningSandbox, path: string): Promise<RequestLogEntry[]> {
	await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS + 500));
	return (await sandbox.admin.requests()).filter((request) => request.method === 'POST' && request.path === path);
}

export function ambiguousWriteCases(checkShape: () => void): void {
	const sandbox = useSandbox();
	afterEach(checkShape);

	describe('Item → Create', () => {
		it('the connection drops after the POST arrived: every item of the batch says its outcome is unknown and how to check; the POST is not repeated', async () => {
			await sandbox().admin.addFault({ kind: 'drop', method: 'POST', pathPrefix: ITEMS_PATH });
			const rows = [validItem('AMB-1'), validItem('AMB-2')];
			const { result, items, requests } = await runNode(sandbox(), CREATE, { inputItems: rows, settings: CONTINUE_ON_FAIL });

			expect(result.error).toBeUndefined();
			expect(requests.map(line)).toEqual([`POST ${ITEMS_PATH} 0`]);
			expect(items.map((item) => [resultOf(item).status, item.pairedItem])).toEqual([
				['failed', { item: 0 }],
				['failed', { item: 1 }],
			]);
			for (const [index, item] of items.entries()) {
				expect(item.json.error).toBe(`Item index ${index} (vendor_sku AMB-${index + 1}): ${BROKE}`);
				expect(item.json.message).toMatch(/To check: Item → Get Many Non-Approved with Filters → Vendor SKU set to each item's SKU/);
				expect(item.json.message).toMatch(/Connection error: (ECONNRESET|socket hang up)\./);
				expect(`${String(item.json.error)} ${String(item.json.message)}`).not.toMatch(NOTHING_CREATED);
			}
		});

		it('no answer before the Timeout, while the service creates the items: the node says outcome unknown, never "No item was created"', async () => {
			await sandbox().admin.addFault({ kind: 'latency', ms: SLOW_ANSWER_MS, method: 'POST', pathPrefix: ITEMS_PATH });
			const rows = [validItem('SLOW-1'), validItem('SLOW-2')];
			const { result } = await runNode(sandbox(), withTimeout(CREATE), { inputItems: rows });

			expect((await postsTo(sandbox(), ITEMS_PATH)).map(line)).toEqual([`POST ${ITEMS_PATH} 200`]);
			expect(result.error?.message).toBe(`2 of 2 items failed. Item index 0 (vendor_sku SLOW-1), item index 1 (vendor_sku SLOW-2): ${TIMED_OUT}`);
			const description = String(result.error?.description);
			expect(description).toMatch(/^Outcome unknown for 2 of the failed item\(s\): their request may have been carried out/);
			expect(description).toMatch(/Apart from those, no item was created or changed\./);
			expect(description).not.toMatch(/^No item was created or changed/m);
			expect(description).not.toMatch(/"Retry On Fail" in the node settings can absorb/);
			// And rightly so: the service went on and created them.
			const created = (await sandbox().admin.state()).items.map((item) => item.vendor_sku);
			expect(created).toEqual(expect.arrayContaining(['SLOW-1', 'SLOW-2']));
		});

		it('a refused connection (wrong Base URL) sent nothing: "No item was created or changed" is true there', async () => {
			const store = new CredentialStore([sandboxCredential(sandbox(), { baseUrl: 'http://127.0.0.1:1' })]);
			const { result } = await runNode(sandbox(), CREATE, { inputItems: [validItem('REF-1')], store });

			expect(result.error?.message).toMatch(/^1 of 1 items failed\. Item index 0 \(vendor_sku REF-1\): The service could not be reached \(ECONNREFUSED\)/);
			expect(String(result.error?.description)).toMatch(/^No item was created or changed\./);
			expect(String(result.error?.description)).not.toMatch(/Outcome unknown/);
		});
	});

	describe('Address → Create', () => {
		it.each([
			['the connection drops after the POST arrived', { kind: 'drop' as const }, ADDRESS_CREATE, BROKE],
			['no answer before the Timeout', { kind: 'latency' as const, ms: SLOW_ANSWER_MS }, withTimeout(ADDRESS_CREATE), TIMED_OUT],
		])('%s: the error says the outcome is unknown and to check Address → Get Many; sent once', async (_what, fault, parameters, message) => {
			await sandbox().admin.addFault({ ...fault, method: 'POST', pathPrefix: ADDRESSES_PATH });
			const { result } = await runNode(sandbox(), parameters);

			expect(await postsTo(sandbox(), ADDRESSES_PATH)).toHaveLength(1);
			expect(result.error?.message).toBe(message);
			expect(result.error?.description).toMatch(/To check: Address → Get Many lists the address if it was created/);
			expect(result.error?.description).not.toMatch(/Retry On Fail" in the node settings can absorb/);
		});

		it('under Continue On Fail the item\'s error output says the same', async () => {
			await sandbox().admin.addFault({ kind: 'drop', method: 'POST', pathPrefix: ADDRESSES_PATH });
			const { result, items } = await runNode(sandbox(), ADDRESS_CREATE, { settings: CONTINUE_ON_FAIL });

			expect(result.error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(items[0].json.error).toBe(BROKE);
		});
	});

	describe('Order → Cancel', () => {
		it.each([
			['the connection drops after the POST arrived', { kind: 'drop' as const }, ORDER_CANCEL, BROKE],
			['no answer before the Timeout', { kind: 'latency' as const, ms: SLOW_ANSWER_MS }, withTimeout(ORDER_CANCEL), TIMED_OUT],
		])('%s: the error says the outcome is unknown and where to check; sent once', async (_what, fault, parameters, message) => {
			await sandbox().admin.addFault({ ...fault, method: 'POST', pathPrefix: CANCELLATIONS_PATH });
			const { result } = await runNode(sandbox(), parameters);

			expect(await postsTo(sandbox(), CANCELLATIONS_PATH)).toHaveLength(1);
			expect(result.error?.message).toBe(message);
			expect(result.error?.description).toMatch(/vendor portal/);
		});
	});
}
