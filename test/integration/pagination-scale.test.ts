// Return All at scale through n8n's real engine against the sandbox: large listings (beyond what RoutingNode's
// push(...records) can carry), the page size asked for and its fallback, and expired cursors mid-listing.
import { runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

const approvedItems = { resource: 'item', operation: 'getAll', validationStatus: 'approved' };
const pageSizes = (requests: Array<{ query: Record<string, string> }>) => requests.map((r) => Number(r.query.page_size));
const itemIds = (items: Array<{ json: Record<string, unknown> }>) => items.map((i) => Number(i.json.item_id));

/** The approved item ids in the sandbox, in listing order (26 seeded + `extra`). */
async function seedApproved(extra: number): Promise<number[]> {
	if (extra > 0) await sandbox().admin.seedManyItems({ count: extra, status: 'approved' });
	const { items } = await sandbox().admin.state();
	return items.filter((i) => i.validation_status === 'approved').map((i) => i.item_id).sort((a, b) => a - b);
}

describe('Return All of a large listing', () => {
	it('150,000 records (above what RoutingNode can return): every record once, in order, 100 per request', async () => {
		await sandbox().admin.seedManyItems({ count: Number(process.env.SCALE_N ?? 150_000) - 26, status: 'approved' });
		const { result, items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: true });
		expect(result.error).toBeUndefined();
		expect(items).toHaveLength(150_000);
		const ids = itemIds(items);
		expect(ids.every((id, index) => index === 0 || id > ids[index - 1])).toBe(true);
		expect(requests).toHaveLength(1_500);
		expect(requests.every((r) => r.query.page_size === '100' && r.status === 200)).toBe(true);
		expect(items[149_999].pairedItem).toEqual({ item: 0 });
	}, 120_000);
});

describe('page size', () => {
	it('a service that refuses 100 (its own 400 naming page_size; other forms: pagination-refusals.test.ts): one refused request, then 20 per page; remembered for the next run', async () => {
		const expected = await seedApproved(74); // 100 approved
		await sandbox().admin.setPaging({ maxPageSize: 20, aboveMaximum: 'reject' });
		const first = await runNode(sandbox(), { ...approvedItems, returnAll: true });
		expect(first.result.error).toBeUndefined();
		expect(itemIds(first.items)).toEqual(expected);
		expect(first.requests.map((r) => [Number(r.query.page_size), r.status])).toEqual([
			[100, 400],
			[20, 200],
			[20, 200],
			[20, 200],
			[20, 200],
			[20, 200],
		]);
		expect(first.requests[1].query.after).toBeUndefined();

		const second = await runNode(sandbox(), { ...approvedItems, returnAll: true });
		expect(itemIds(second.items)).toEqual(expected);
		expect(pageSizes(second.requests)).toEqual([20, 20, 20, 20, 20]);
	});

	it('a service that silently sends fewer than 100: followed by cursor, every record once', async () => {
		const expected = await seedApproved(74);
		await sandbox().admin.setPaging({ maxPageSize: 30 });
		const { items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: true });
		expect(itemIds(items)).toEqual(expected);
		expect(pageSizes(requests)).toEqual([100, 100, 100, 100]);
	});

	it('a Page Size the user set is sent as it is, even when the service refuses it', async () => {
		await sandbox().admin.setPaging({ maxPageSize: 20, aboveMaximum: 'reject' });
		const { result, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: true, listOptions: { pageSize: 50 } });
		expect(pageSizes(requests)).toEqual([50]);
		expect(result.error?.message).toMatch(/400|page_size/i);
	});
});

describe('an expired cursor mid-listing', () => {
	it('starts again from the first page and skips what was returned: every record exactly once', async () => {
		const expected = await seedApproved(474); // 500 approved: 5 pages of 100
		await sandbox().admin.addFault({
			kind: 'status',
			status: 400,
			pathPrefix: '/v1/items',
			skip: 3,
			body: { error: 'after cursor has expired; start again from the first page' },
		});
		const { result, items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: true });
		expect(result.error).toBeUndefined();
		expect(itemIds(items)).toEqual(expected);
		// 3 pages, the expired 4th, then 5 pages from the start (the first 3 skipped, not returned twice).
		expect(requests.map((r) => r.status)).toEqual([200, 200, 200, 400, 200, 200, 200, 200, 200]);
		expect(requests[4].query.after).toBeUndefined();
	});

	it('a cursor that keeps expiring: a clear error saying how far it got', async () => {
		await seedApproved(474);
		await sandbox().admin.setPaging({ cursorLifetimeSeconds: 0 });
		await sandbox().admin.addFault({ kind: 'latency', ms: 5, pathPrefix: '/v1/items', count: 100 });
		const { result } = await runNode(sandbox(), { ...approvedItems, returnAll: true });
		expect(result.error?.message).toMatch(/kept refusing the page cursor: 100 records were read/);
	});

	it('with Continue on Fail: that input item gives one item with the error, the others their records', async () => {
		await sandbox().admin.setPaging({ maxPageSize: 20, aboveMaximum: 'reject' });
		const { result, items } = await runNode(
			sandbox(),
			{ resource: 'consignment', operation: 'getAll', returnAll: true, listOptions: { pageSize: '={{ $json.size }}' } },
			{ inputItems: [{ size: 50 }, { size: 2 }], settings: { continueOnFail: true } },
		);
		expect(result.error).toBeUndefined();
		expect(items[0].json.error).toMatch(/400|page_size/i);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items.slice(1).map((i) => i.json.id)).toEqual(['cons_12345', 1001, 'cons_67890']);
	});
});
