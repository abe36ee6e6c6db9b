// Consignment → Get / Get Many through n8n-core against the sandbox, and the list behind its resource locator.
import { locator, runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

describe('Consignment → Get', () => {
	it('picked from the list: GET /v1/consignments/{id}, outputs the consignment (unwrapped) as returned', async () => {
		const { result, items, requests } = await runNode(sandbox(), {
			resource: 'consignment',
			operation: 'get',
			consignmentId: locator('cons_12345'),
		});
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/v1/consignments/cons_12345', query: {}, body: null, status: 200 });
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ id: 'cons_12345', status: 'created' });
		expect(typeof items[0].json.consignment_items_count).toBe('number');
		expect(Object.keys(items[0].json).sort()).toEqual(['consignment_items_count', 'created_at', 'id', 'status', 'updated_at']);
	});

	it('by ID from an expression, one request per input item; a numeric id stays a number as returned', async () => {
		const { items, requests } = await runNode(
			sandbox(),
			{ resource: 'consignment', operation: 'get', consignmentId: locator('={{ $json.id }}', 'id') },
			{ inputItems: [{ id: '1001' }, { id: ' cons_67890 ' }] },
		);
		expect(requests.map((r) => r.path)).toEqual(['/v1/consignments/1001', '/v1/consignments/cons_67890']);
		expect(items.map((i) => i.json.id)).toEqual([1001, 'cons_67890']);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('an unknown consignment: the error names it; with Continue On Fail the other items go on', async () => {
		const failing = await runNode(sandbox(), { resource: 'consignment', operation: 'get', consignmentId: locator('nope', 'id') });
		expect(failing.result.error?.message).toBe('Consignment nope was not found: Consignment nope not found');
		expect(failing.result.error?.description).toMatch(/Consignment → Get Many/);

		const continuing = await runNode(
			sandbox(),
			{ resource: 'consignment', operation: 'get', consignmentId: locator('={{ $json.id }}', 'id') },
			{ inputItems: [{ id: 'nope' }, { id: 'cons_12345' }], settings: { continueOnFail: true } },
		);
		expect(continuing.items).toHaveLength(2);
		expect(String(continuing.items[0].json.error)).toMatch(/Consignment nope was not found/);
		// The one Continue On Fail shape of every operation: the error, and what to do about it.
		expect(continuing.items[0]).toEqual({
			json: { error: 'Consignment nope was not found: Consignment nope not found', message: expect.stringMatching(/Consignment → Get Many/) },
			pairedItem: { item: 0 },
		});
		expect(continuing.items[1].json.id).toBe('cons_12345');
	});

	it('an ID that resolves to nothing fails before any request, naming the field and item', async () => {
		const { result, requests } = await runNode(
			sandbox(),
			{ resource: 'consignment', operation: 'get', consignmentId: locator('={{ $json.id }}', 'id') },
			{ inputItems: [{ id: 'cons_12345' }, { id: '  ' }] },
		);
		expect(result.error?.message).toBe('Item index 1: Consignment is required');
		// Item 1 sent none. Item 0's request runs beside it: sent if it had left the queue when item 1 failed the
		// node, otherwise taken out of the queue (the runner's stop).
		expect(requests.length).toBeLessThanOrEqual(1);
		expect(requests.every((r) => r.path === '/v1/consignments/cons_12345')).toBe(true);
	});

	it('a typed ID with a slash is refused by the field itself (n8n reports the node issue before running)', async () => {
		await expect(
			runNode(sandbox(), { resource: 'consignment', operation: 'get', consignmentId: locator('a/b', 'id') }),
		).rejects.toThrow(/Enter one consignment ID, without spaces or slashes/);
	});
});

describe('Consignment → Get Many', () => {
	it('returns every consignment, one item per record as returned, from one page request', async () => {
		const { result, items, requests } = await runNode(sandbox(), { resource: 'consignment', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/v1/consignments', query: { page_size: '100' }, status: 200 });
		expect(items.map((i) => i.json.id)).toEqual(['cons_12345', 1001, 'cons_67890']);
		expect(items.every((i) => JSON.stringify(i.pairedItem) === JSON.stringify({ item: 0 }))).toBe(true);
	});

	it('Limit 2 asks for page_size 2 and returns 2', async () => {
		const { items, requests } = await runNode(sandbox(), { resource: 'consignment', operation: 'getAll', returnAll: false, limit: 2 });
		expect(requests.map((r) => r.query)).toEqual([{ page_size: '2' }]);
		expect(items.map((i) => i.json.id)).toEqual(['cons_12345', 1001]);
	});
});
