// The shared cursor paginator through n8n's real engine (the list operations' custom operations) against the sandbox (which signs cursors per listing
// and filters, and clamps page_size at 100): what each page request carried and what the node returned.
import type { RequestLogEntry } from '../sandbox';
import { validAddress } from './address-input';
import { runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

const approvedItems = { resource: 'item', operation: 'getAll', validationStatus: 'approved' };
const ids = (items: Array<{ json: Record<string, unknown> }>) => items.map((i) => i.json.item_id);
const pageSizes = (requests: RequestLogEntry[]) => requests.map((r) => Number(r.query.page_size));

async function approvedItemIdsInState(): Promise<number[]> {
	const { items } = await sandbox().admin.state();
	return items
		.filter((i) => i.validation_status === 'approved')
		.map((i) => i.item_id)
		.sort((a, b) => a - b);
}

describe('pagination of the list operations through n8n', () => {
	it('0 records: one request, no items, no error', async () => {
		const { result, items, requests } = await runNode(sandbox(), { ...approvedItems, filters: { vendorSku: 'NO-SUCH-SKU' }, returnAll: true });
		expect(result.error).toBeUndefined();
		expect(items).toEqual([]);
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toEqual({ validation_status: 'approved', vendor_sku: 'NO-SUCH-SKU', page_size: '100' });
	});

	it('exactly one page: one request with page_size only, then stops', async () => {
		const { items, requests } = await runNode(sandbox(), { resource: 'consignment', operation: 'getAll', returnAll: true });
		expect(items).toHaveLength(3);
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toEqual({ page_size: '100' });
	});

	it('many pages: every record exactly once, the filter kept on page 2+, after = a cursor the service accepted', async () => {
		const { result, items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: true, listOptions: { pageSize: 20 } });
		expect(result.error).toBeUndefined();
		const expected = await approvedItemIdsInState();
		expect(expected).toHaveLength(26);
		expect(ids(items)).toEqual(expected);
		expect(new Set(ids(items)).size).toBe(26);
		expect(requests).toHaveLength(2);
		expect(requests[0].query).toEqual({ validation_status: 'approved', page_size: '20' });
		expect(requests[1].query).toMatchObject({ validation_status: 'approved', page_size: '20' });
		expect(typeof requests[1].query.after).toBe('string');
		// The sandbox answers 400 to a cursor of another listing, other filters, or an altered one.
		expect(requests.every((r) => r.status === 200)).toBe(true);
	});

	it.each([
		{ case: 'below a page', limit: 5, sizes: [5], count: 5 },
		{ case: 'equal to a page', limit: 20, sizes: [20], count: 20 },
		{ case: 'above a page', limit: 23, sizes: [20, 3], count: 23 },
		{ case: 'above what exists', limit: 40, sizes: [20, 20], count: 26 },
	])('Limit $case ($limit): asks for $sizes, returns $count, makes no extra request', async ({ limit, sizes, count }) => {
		const { items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: false, limit });
		expect(pageSizes(requests)).toEqual(sizes);
		expect(ids(items)).toEqual((await approvedItemIdsInState()).slice(0, count));
	});

	it('Page Size option is sent, and a larger one means fewer requests', async () => {
		const { items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: true, listOptions: { pageSize: 7 } });
		expect(pageSizes(requests)).toEqual([7, 7, 7, 7]);
		expect(items).toHaveLength(26);
	});

	it('a server that does not honour page_size (the sandbox clamps at 100): still every record, once', async () => {
		// 100 more addresses, so the 104 addresses need two pages even at the sandbox's maximum.
		const client = await sandboxApi();
		for (let n = 0; n < 100; n++) {
			await client.post('/v1/vendor/addresses', validAddress({ last_name: `Address ${n}`, address1: `${n} Main St` }));
		}
		const all = await runNode(sandbox(), { resource: 'address', operation: 'getAll', returnAll: true, listOptions: { pageSize: 150 } });
		expect(all.result.error).toBeUndefined();
		expect(pageSizes(all.requests)).toEqual([150, 150]);
		expect(all.items).toHaveLength(104);
		expect(new Set(all.items.map((i) => i.json.address_id)).size).toBe(104);

		const limited = await runNode(sandbox(), { resource: 'address', operation: 'getAll', returnAll: false, limit: 120, listOptions: { pageSize: 150 } });
		// Asked for 120, got 100: the second page asks only for the 20 still missing.
		expect(pageSizes(limited.requests)).toEqual([120, 20]);
		expect(limited.items.map((i) => i.json.address_id)).toEqual(all.items.slice(0, 120).map((i) => i.json.address_id));
	});

	it('one list per input item: each item paginates on its own, outputs paired with it', async () => {
		const { items, requests } = await runNode(
			sandbox(),
			{ resource: 'consignment', operation: 'getAll', returnAll: false, limit: '={{ $json.n }}' },
			{ inputItems: [{ n: 1 }, { n: 2 }] },
		);
		expect(requests).toHaveLength(2);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 1 }]);
	});
});

/** A minimal API client for setting up data, with its own token (not through the node). */
async function sandboxApi() {
	const sb = sandbox();
	const tokenResponse = await fetch(`${sb.authUrl}/api/v1/bearer-token`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
		body: JSON.stringify({ client_id: sb.clientId, client_secret: sb.clientSecret }),
	});
	const { bearer_token: token } = (await tokenResponse.json()) as { bearer_token: string };
	return {
		post: async (path: string, body: unknown) => {
			const response = await fetch(`${sb.baseUrl}${path}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
				body: JSON.stringify(body),
			});
			if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
		},
	};
}
