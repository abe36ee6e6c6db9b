// Return All and Limit through n8n's real engine against the sandbox, where the sandbox answers an expired cursor
// and a refused page size in forms other than its own (paging settings: status, body shape, wording that names
// neither the cursor nor page_size). The node must decide from which request was refused, not from the words.
import type { PagingSettings, RequestLogEntry } from '../sandbox';
import { runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

const approvedItems = { resource: 'item', operation: 'getAll', validationStatus: 'approved' };
const itemIds = (items: Array<{ json: Record<string, unknown> }>) => items.map((i) => Number(i.json.item_id));
const sizesAndStatuses = (requests: RequestLogEntry[]) => requests.map((r) => [Number(r.query.page_size), r.status]);

/** The approved item ids in the sandbox, in listing order (26 seeded + `extra`). */
async function seedApproved(extra: number): Promise<number[]> {
	if (extra > 0) await sandbox().admin.seedManyItems({ count: extra, status: 'approved' });
	const { items } = await sandbox().admin.state();
	return items.filter((i) => i.validation_status === 'approved').map((i) => i.item_id).sort((a, b) => a - b);
}

/**
 * Makes the cursor of item-listing request number `request` (1-based) expire, the sandbox's own way: cursors live
 * 1 s and that request waits 1.1 s before it is handled. Every other request is answered at once.
 */
async function expireCursorOfRequest(request: number, form: Partial<PagingSettings>): Promise<void> {
	await sandbox().admin.setPaging({ cursorLifetimeSeconds: 1, ...form });
	await sandbox().admin.addFault({ kind: 'latency', ms: 1100, pathPrefix: '/v1/items', skip: request - 1 });
}

// None of these wordings mentions a cursor, `after` or expiry.
const expiryForms: Array<Partial<PagingSettings>> = [
	{ expiredCursorStatus: 400, expiredCursorBody: 'error', expiredCursorMessage: 'Bad Request' },
	{ expiredCursorStatus: 404, expiredCursorBody: 'message', expiredCursorMessage: 'Not Found' },
	{ expiredCursorStatus: 410, expiredCursorBody: 'text', expiredCursorMessage: 'Gone' },
	{ expiredCursorStatus: 422, expiredCursorBody: 'errors', expiredCursorMessage: 'Invalid parameter value' },
	{ expiredCursorStatus: 400, expiredCursorBody: 'text', expiredCursorMessage: 'The request could not be processed' },
];

describe('an expired cursor in another form', () => {
	it.each(expiryForms)(
		'Return All, answered $expiredCursorStatus {$expiredCursorBody: "$expiredCursorMessage"}: restarts, every record exactly once',
		async (form) => {
			const expected = await seedApproved(224); // 250 approved: 3 pages of 100
			await expireCursorOfRequest(3, form);
			const { result, items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: true });
			expect(result.error).toBeUndefined();
			expect(itemIds(items)).toEqual(expected);
			// 2 pages, the refused 3rd, then 3 pages from the start (the first 2 skipped, not returned twice).
			expect(requests.map((r) => r.status)).toEqual([200, 200, form.expiredCursorStatus, 200, 200, 200]);
			expect(requests[3].query.after).toBeUndefined();
		},
		15_000,
	);

	it('Limit 45, answered 410 in plain text: the re-read asks for full pages of 20 and is cut at 45', async () => {
		const expected = await seedApproved(74);
		await expireCursorOfRequest(3, { expiredCursorStatus: 410, expiredCursorBody: 'text', expiredCursorMessage: 'Gone' });
		const { result, items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: false, limit: 45 });
		expect(result.error).toBeUndefined();
		expect(itemIds(items)).toEqual(expected.slice(0, 45));
		expect(sizesAndStatuses(requests)).toEqual([
			[20, 200],
			[20, 200],
			[5, 410],
			[20, 200],
			[20, 200],
			[20, 200],
		]);
	}, 15_000);

	it('items listed as 2 variants each, an expiry between the two variants of an item: every variant exactly once', async () => {
		await seedApproved(100); // 126 approved items, 252 variants
		// 25 per page (the sandbox clamps the node's 100): page 1 ends after the first variant of the 13th item.
		await sandbox().admin.setPaging({ variantsPerItem: 2, maxPageSize: 25 });
		await expireCursorOfRequest(2, { expiredCursorStatus: 404, expiredCursorBody: 'message', expiredCursorMessage: 'Not Found' });
		const { result, items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: true });
		expect(result.error).toBeUndefined();
		expect(requests[1].status).toBe(404);
		const variantIds = items.map((i) => Number(i.json.id));
		expect(items).toHaveLength(252);
		expect(new Set(variantIds).size).toBe(252);
		const perItem = new Map<number, number>();
		for (const id of itemIds(items)) perItem.set(id, (perItem.get(id) ?? 0) + 1);
		expect([...perItem.values()].every((n) => n === 2)).toBe(true);
		expect(perItem.size).toBe(126);
	}, 15_000);
});

// None of these wordings names page_size.
const pageSizeRefusals: Array<Partial<PagingSettings>> = [
	{ pageSizeRefusalStatus: 400, pageSizeRefusalBody: 'error', pageSizeRefusalMessage: 'Bad Request' },
	{ pageSizeRefusalStatus: 422, pageSizeRefusalBody: 'errors', pageSizeRefusalMessage: 'limit must be 20 or less' },
	{ pageSizeRefusalStatus: 413, pageSizeRefusalBody: 'text', pageSizeRefusalMessage: 'Too many records requested' },
	{ pageSizeRefusalStatus: 404, pageSizeRefusalBody: 'message', pageSizeRefusalMessage: 'Not Found' },
];

describe('a refused page size in another form', () => {
	it.each(pageSizeRefusals)(
		'Return All, 100 answered $pageSizeRefusalStatus {$pageSizeRefusalBody: "$pageSizeRefusalMessage"}: 20 per page, every record once, remembered',
		async (form) => {
			const expected = await seedApproved(34); // 60 approved
			await sandbox().admin.setPaging({ maxPageSize: 20, aboveMaximum: 'reject', ...form });
			const first = await runNode(sandbox(), { ...approvedItems, returnAll: true });
			expect(first.result.error).toBeUndefined();
			expect(itemIds(first.items)).toEqual(expected);
			expect(sizesAndStatuses(first.requests)).toEqual([
				[100, form.pageSizeRefusalStatus],
				[20, 200],
				[20, 200],
				[20, 200],
			]);

			const second = await runNode(sandbox(), { ...approvedItems, returnAll: true });
			expect(itemIds(second.items)).toEqual(expected);
			expect(sizesAndStatuses(second.requests)).toEqual([
				[20, 200],
				[20, 200],
				[20, 200],
			]);
		},
	);

	it('a Page Size the user set gets no fallback: one request, its refusal is the error', async () => {
		await sandbox().admin.setPaging({ maxPageSize: 20, aboveMaximum: 'reject', pageSizeRefusalStatus: 422, pageSizeRefusalBody: 'text', pageSizeRefusalMessage: 'Unprocessable' });
		const { result, items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: true, listOptions: { pageSize: 50 } });
		expect(items).toEqual([]);
		expect(sizesAndStatuses(requests)).toEqual([[50, 422]]);
		expect(result.error?.message).toMatch(/Unprocessable/);
	});

	it('both at once: 100 refused, then a cursor of the pages of 20 expires; every record exactly once', async () => {
		const expected = await seedApproved(74); // 100 approved: 5 pages of 20
		await sandbox().admin.setPaging({ maxPageSize: 20, aboveMaximum: 'reject', pageSizeRefusalStatus: 400, pageSizeRefusalMessage: 'Bad Request' });
		// request 1 is the refused 100, 2-3 are pages 1-2 of 20: request 4 carries page 3's cursor.
		await expireCursorOfRequest(4, { expiredCursorStatus: 400, expiredCursorMessage: 'Bad Request' });
		const { result, items, requests } = await runNode(sandbox(), { ...approvedItems, returnAll: true });
		expect(result.error).toBeUndefined();
		expect(itemIds(items)).toEqual(expected);
		expect(requests.map((r) => r.status)).toEqual([400, 200, 200, 400, 200, 200, 200, 200, 200]);
	}, 15_000);
});
