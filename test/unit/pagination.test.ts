// The shared cursor paginator, driven through a fake `makeRoutingRequest` (no n8n, no HTTP): what it asks for
// on every page and what it returns. The same behaviour against the sandbox through n8n's real RoutingNode is
// covered in test/integration/pagination.test.ts.
import type { DeclarativeRestApiSettings, IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { cursorPaginator, DEFAULT_PAGE_SIZE, listOperationRouting } from '../../nodes/ConsignmentVendor/shared/pagination';
import { paginationContext } from './fakes';

interface FakeServerOptions {
	total: number;
	/** Answer this many per page whatever page_size says. */
	fixedPageSize?: number;
	/** Cap page_size at this. */
	maxPageSize?: number;
	/** From this page on (1-based), hand back the cursor of the previous page. */
	repeatCursorFromPage?: number;
	/** On this page, say has_next_page without an end_cursor. */
	missingCursorOnPage?: number;
	/** Every page empty but claiming more. */
	alwaysEmpty?: boolean;
}

function fakeServer(options: FakeServerOptions) {
	const records = Array.from({ length: options.total }, (_, i) => ({ id: i + 1, name: `record ${i + 1}` }));
	const requests: IDataObject[] = [];
	let lastCursor: string | undefined;
	const handle = (qs: IDataObject) => {
		requests.push({ ...qs });
		const page = requests.length;
		const start = qs.after === undefined ? 0 : Number(Buffer.from(String(qs.after), 'base64').toString().split(':')[1]);
		let size = Number(qs.page_size ?? 20);
		if (options.maxPageSize) size = Math.min(size, options.maxPageSize);
		if (options.fixedPageSize) size = options.fixedPageSize;
		const slice = options.alwaysEmpty ? [] : records.slice(start, start + size);
		const end = options.alwaysEmpty ? page : start + slice.length;
		const hasNext = options.alwaysEmpty ? true : end < records.length;
		let cursor: string | undefined = Buffer.from(`cursor:${end}`).toString('base64');
		if (options.repeatCursorFromPage !== undefined && page >= options.repeatCursorFromPage && lastCursor) cursor = lastCursor;
		if (options.missingCursorOnPage === page) cursor = undefined;
		lastCursor = cursor;
		return {
			things: slice,
			page_info: { start_cursor: 'x', end_cursor: cursor, has_previous_page: start > 0, has_next_page: hasNext },
		};
	};
	return { records, requests, handle };
}

function run(
	server: ReturnType<typeof fakeServer>,
	parameters: IDataObject,
	baseQuery: IDataObject = {},
) {
	const context = paginationContext({
		parameters,
		itemIndex: 3,
		makeRoutingRequest: async (request) => [{ json: server.handle(request.options.qs as IDataObject) }],
	});
	const requestData = {
		options: { method: 'GET', url: '/v1/things', qs: { ...baseQuery } },
		preSend: [],
		postReceive: [],
		paginate: true,
	} as unknown as DeclarativeRestApiSettings.ResultOptions;
	return cursorPaginator('things').call(context, requestData);
}

const ids = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json.id);

describe('cursorPaginator: Return All', () => {
	it('returns nothing, after one request, when the collection is empty', async () => {
		const server = fakeServer({ total: 0 });
		const items = await run(server, { returnAll: true });
		expect(items).toEqual([]);
		expect(server.requests).toEqual([{ page_size: DEFAULT_PAGE_SIZE }]);
	});

	it('makes one request for exactly one page: page_size alone, no cursor', async () => {
		const server = fakeServer({ total: 20 });
		const items = await run(server, { returnAll: true });
		expect(ids(items)).toEqual(server.records.map((r) => r.id));
		expect(server.requests).toEqual([{ page_size: 20 }]);
	});

	it('follows end_cursor over many pages and returns every record once, in order, paired with the input item', async () => {
		const server = fakeServer({ total: 53 });
		const items = await run(server, { returnAll: true });
		expect(ids(items)).toEqual(server.records.map((r) => r.id));
		expect(server.requests).toHaveLength(3);
		expect(server.requests[0]).toEqual({ page_size: 20 });
		expect(server.requests[1]).toEqual({ page_size: 20, after: Buffer.from('cursor:20').toString('base64') });
		expect(server.requests[2]).toEqual({ page_size: 20, after: Buffer.from('cursor:40').toString('base64') });
		expect(items.every((item) => (item.pairedItem as { item: number }).item === 3)).toBe(true);
		expect(items[0].json).toEqual({ id: 1, name: 'record 1' });
	});

	it('keeps every filter on every page and drops a stray after/before from the first page', async () => {
		const server = fakeServer({ total: 45 });
		await run(server, { returnAll: true }, { validation_status: 'approved', vendor_sku: 'ABC', after: 'stale', before: 'x' });
		expect(server.requests).toHaveLength(3);
		for (const request of server.requests) {
			expect(request).toMatchObject({ validation_status: 'approved', vendor_sku: 'ABC' });
			expect(request.before).toBeUndefined();
		}
		expect(server.requests[0].after).toBeUndefined();
	});

	it('uses the Page Size option', async () => {
		const server = fakeServer({ total: 12 });
		const items = await run(server, { returnAll: true, listOptions: { pageSize: 5 } });
		expect(items).toHaveLength(12);
		expect(server.requests.map((r) => r.page_size)).toEqual([5, 5, 5]);
	});

	it('is correct when the server sends fewer records than page_size asked for', async () => {
		const server = fakeServer({ total: 23, maxPageSize: 4 });
		const items = await run(server, { returnAll: true });
		expect(ids(items)).toEqual(server.records.map((r) => r.id));
		expect(server.requests).toHaveLength(6);
	});

	it('is correct when the server ignores page_size and sends more', async () => {
		const server = fakeServer({ total: 30, fixedPageSize: 25 });
		const items = await run(server, { returnAll: true, listOptions: { pageSize: 10 } });
		expect(ids(items)).toEqual(server.records.map((r) => r.id));
		expect(server.requests).toHaveLength(2);
	});
});

describe('cursorPaginator: Limit', () => {
	it.each([
		{ limit: 5, total: 100, expectedSizes: [5] },
		{ limit: 20, total: 100, expectedSizes: [20] },
		{ limit: 45, total: 100, expectedSizes: [20, 20, 5] },
		{ limit: 50, total: 12, expectedSizes: [20] },
	])('Limit $limit of $total asks for $expectedSizes and returns min(limit, total)', async ({ limit, total, expectedSizes }) => {
		const server = fakeServer({ total });
		const items = await run(server, { returnAll: false, limit });
		expect(ids(items)).toEqual(server.records.slice(0, limit).map((r) => r.id));
		expect(server.requests.map((r) => r.page_size)).toEqual(expectedSizes);
	});

	it('cuts a page that is longer than asked for, and stops requesting once it has the limit', async () => {
		const server = fakeServer({ total: 100, fixedPageSize: 30 });
		const items = await run(server, { returnAll: false, limit: 7 });
		expect(ids(items)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		expect(server.requests).toHaveLength(1);
	});

	it('keeps asking while a short page leaves it below the limit', async () => {
		const server = fakeServer({ total: 100, maxPageSize: 3 });
		const items = await run(server, { returnAll: false, limit: 8 });
		expect(ids(items)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
		expect(server.requests.map((r) => r.page_size)).toEqual([8, 5, 2]);
	});

	it('rejects a limit below 1 before any request', async () => {
		const server = fakeServer({ total: 5 });
		await expect(run(server, { returnAll: false, limit: 0 })).rejects.toThrow(/Limit must be a whole number of at least 1/);
		expect(server.requests).toHaveLength(0);
	});
});

describe('cursorPaginator: a misbehaving server', () => {
	it('stops with a clear error when the server repeats a cursor', async () => {
		const server = fakeServer({ total: 200, repeatCursorFromPage: 3 });
		const error = await run(server, { returnAll: true }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/same page cursor twice \(page 3\)/);
		expect(server.requests).toHaveLength(3);
	});

	it('stops with a clear error when has_next_page comes without an end_cursor', async () => {
		const server = fakeServer({ total: 200, missingCursorOnPage: 2 });
		const error = await run(server, { returnAll: true }).catch((e: unknown) => e);
		expect((error as Error).message).toMatch(/another page after page 2 but gave no cursor/);
		expect(server.requests).toHaveLength(2);
	});

	it('stops after a run of empty pages that claim more', async () => {
		const server = fakeServer({ total: 0, alwaysEmpty: true });
		await expect(run(server, { returnAll: true })).rejects.toThrow(/empty pages in a row/);
		expect(server.requests).toHaveLength(5);
	});

	it('stops at the first page that lacks the collection key, naming the key and the page', async () => {
		// A page under another key (`products` where `things` was expected), claiming more pages.
		let requests = 0;
		const context = paginationContext({
			parameters: { returnAll: true },
			makeRoutingRequest: async () => {
				requests++;
				return [{ json: { products: [{ id: 1 }], page_info: { has_next_page: true, end_cursor: `c${requests}` } } }];
			},
		});
		await expect(
			cursorPaginator('things').call(context, { options: { qs: {} } } as unknown as DeclarativeRestApiSettings.ResultOptions),
		).rejects.toThrow(/The service's answer has no "things" list \(page 1\)/);
		expect(requests).toBe(1);
	});

	it('maps a failed page request through the error mapper', async () => {
		const context = paginationContext({
			parameters: { returnAll: true },
			itemIndex: 1,
			makeRoutingRequest: async () => {
				throw Object.assign(new Error('Request failed with status code 500'), {
					isAxiosError: true,
					response: { status: 500, data: { error: 'database unavailable' }, headers: {} },
				});
			},
		});
		const error = await cursorPaginator('things')
			.call(context, { options: { qs: {} } } as unknown as DeclarativeRestApiSettings.ResultOptions)
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toMatch(/HTTP 500/);
		expect((error as NodeApiError).description).toMatch(/database unavailable/);
		expect((error as NodeApiError).context.itemIndex).toBe(1);
	});
});

describe('listOperationRouting', () => {
	it('is a paginated GET of the url with the cursor paginator', () => {
		const routing = listOperationRouting({ url: '/v1/consignments', collectionKey: 'consignments' });
		expect(routing.request).toEqual({ method: 'GET', url: '/v1/consignments' });
		expect(routing.send?.paginate).toBe(true);
		expect(typeof routing.operations?.pagination).toBe('function');
	});
});
