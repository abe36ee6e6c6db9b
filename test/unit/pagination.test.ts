// The shared cursor paginator, driven through a fake page source (no n8n, no HTTP): what it asks for on every
// page and what it hands over. The same behaviour against the sandbox through n8n's real engine is covered in
// test/integration/pagination.test.ts.
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	DEFAULT_PAGE_SIZE,
	forgetRefusedPageSizes,
	LARGE_PAGE_SIZE,
	readPages,
	type PagingOptions,
} from '../../nodes/shared/pagination';
import { FAKE_NODE, n8n1RequestError, n8nRequestError } from './fakes';

interface FakeServerOptions {
	total: number;
	/** Answer this many per page whatever page_size says. */
	fixedPageSize?: number;
	/** Cap page_size at this (silently). */
	maxPageSize?: number;
	/** Answer 400 naming page_size above this. */
	refuseAbove?: number;
	/** From this page on (1-based), hand back the cursor of the previous page. */
	repeatCursorFromPage?: number;
	/** On this page, say has_next_page without an end_cursor. */
	missingCursorOnPage?: number;
	/** Every page empty but claiming more. */
	alwaysEmpty?: boolean;
	/** A cursor is refused as expired once this many requests were made after it was issued. */
	cursorLifetimeRequests?: number;
}

function fakeServer(options: FakeServerOptions) {
	const records = Array.from({ length: options.total }, (_, i) => ({ id: i + 1, name: `record ${i + 1}` }));
	const requests: IDataObject[] = [];
	const issuedAt = new Map<string, number>();
	let lastCursor: string | undefined;
	const handle = async (qs: IDataObject): Promise<IDataObject> => {
		requests.push({ ...qs });
		const page = requests.length;
		if (options.refuseAbove !== undefined && Number(qs.page_size) > options.refuseAbove) {
			throw n8nRequestError(400, { error: `page_size must be at most ${options.refuseAbove}` });
		}
		if (qs.after !== undefined && options.cursorLifetimeRequests !== undefined) {
			const issued = issuedAt.get(String(qs.after)) ?? 0;
			if (page - issued > options.cursorLifetimeRequests) throw n8nRequestError(400, { error: 'after cursor has expired' });
		}
		const start = qs.after === undefined ? 0 : Number(Buffer.from(String(qs.after), 'base64').toString().split(':')[1]);
		let size = Number(qs.page_size ?? 20);
		if (options.maxPageSize) size = Math.min(size, options.maxPageSize);
		if (options.fixedPageSize) size = options.fixedPageSize;
		const slice = options.alwaysEmpty ? [] : records.slice(start, start + size);
		const end = options.alwaysEmpty ? page : start + slice.length;
		const hasNext = options.alwaysEmpty ? true : end < records.length;
		// A fresh cursor string per issue, so the same position issued again is a different (new) cursor.
		let cursor: string | undefined = Buffer.from(`cursor:${end}:${page}`).toString('base64');
		if (options.repeatCursorFromPage !== undefined && page >= options.repeatCursorFromPage && lastCursor) cursor = lastCursor;
		if (options.missingCursorOnPage === page) cursor = undefined;
		if (cursor !== undefined && !issuedAt.has(cursor)) issuedAt.set(cursor, page);
		lastCursor = cursor;
		return {
			things: slice,
			page_info: { start_cursor: 'x', end_cursor: cursor, has_previous_page: start > 0, has_next_page: hasNext },
		};
	};
	return { records, requests, handle };
}

let services = 0;

async function run(
	server: ReturnType<typeof fakeServer>,
	options: Partial<PagingOptions> = {},
	query: IDataObject = {},
): Promise<Array<{ id: number; name: string }>> {
	const seen: Array<{ id: number; name: string }> = [];
	await readPages(
		server.handle,
		{ collectionKey: 'things', idKeys: ['id'], query },
		{ node: FAKE_NODE, serviceKey: `service-${++services}`, ...options },
		(record) => seen.push(record as { id: number; name: string }),
	);
	return seen;
}

const ids = (items: Array<{ id: number }>) => items.map((item) => item.id);
const after = (position: number, page: number) => Buffer.from(`cursor:${position}:${page}`).toString('base64');

beforeEach(() => forgetRefusedPageSizes());

describe('readPages: Return All', () => {
	it('returns nothing, after one request, when the collection is empty', async () => {
		const server = fakeServer({ total: 0 });
		const items = await run(server);
		expect(items).toEqual([]);
		expect(server.requests).toEqual([{ page_size: LARGE_PAGE_SIZE }]);
	});

	it('makes one request for exactly one page: page_size alone, no cursor', async () => {
		const server = fakeServer({ total: 100 });
		const items = await run(server);
		expect(ids(items)).toEqual(server.records.map((r) => r.id));
		expect(server.requests).toEqual([{ page_size: 100 }]);
	});

	it('follows end_cursor over many pages of 100 and returns every record once, in order', async () => {
		const server = fakeServer({ total: 253 });
		const items = await run(server);
		expect(ids(items)).toEqual(server.records.map((r) => r.id));
		expect(server.requests).toEqual([
			{ page_size: 100 },
			{ page_size: 100, after: after(100, 1) },
			{ page_size: 100, after: after(200, 2) },
		]);
		expect(items[0]).toEqual({ id: 1, name: 'record 1' });
	});

	it('keeps every filter on every page', async () => {
		const server = fakeServer({ total: 245 });
		await run(server, {}, { validation_status: 'approved', vendor_sku: 'ABC' });
		expect(server.requests).toHaveLength(3);
		for (const request of server.requests) expect(request).toMatchObject({ validation_status: 'approved', vendor_sku: 'ABC' });
		expect(server.requests[0].after).toBeUndefined();
	});

	it('sends the Page Size the user set, even above 100, as it is', async () => {
		const server = fakeServer({ total: 12 });
		expect(await run(server, { pageSize: 5 })).toHaveLength(12);
		expect(server.requests.map((r) => r.page_size)).toEqual([5, 5, 5]);
		const large = fakeServer({ total: 300 });
		expect(await run(large, { pageSize: 250 })).toHaveLength(300);
		expect(large.requests.map((r) => r.page_size)).toEqual([250, 250]);
	});

	it('is correct when the server sends fewer records than page_size asked for (silent cap)', async () => {
		const server = fakeServer({ total: 93, maxPageSize: 20 });
		const items = await run(server);
		expect(ids(items)).toEqual(server.records.map((r) => r.id));
		expect(server.requests.map((r) => r.page_size)).toEqual([100, 100, 100, 100, 100]);
	});

	it('is correct when the server ignores page_size and sends more', async () => {
		const server = fakeServer({ total: 30, fixedPageSize: 25 });
		const items = await run(server, { pageSize: 10 });
		expect(ids(items)).toEqual(server.records.map((r) => r.id));
		expect(server.requests).toHaveLength(2);
	});
});

describe('readPages: a service that refuses page_size 100', () => {
	it('falls back to 20 after one refused request, loses nothing, and remembers it for the same service only', async () => {
		const server = fakeServer({ total: 45, refuseAbove: 20 });
		const options = { node: FAKE_NODE, serviceKey: 'refusing' };
		expect(ids(await run(server, options))).toEqual(server.records.map((r) => r.id));
		expect(server.requests.map((r) => r.page_size)).toEqual([100, 20, 20, 20]);
		expect(server.requests[1].after).toBeUndefined();

		server.requests.length = 0;
		expect(await run(server, options)).toHaveLength(45);
		expect(server.requests.map((r) => r.page_size)).toEqual([20, 20, 20]);

		const other = fakeServer({ total: 45 });
		await run(other, { node: FAKE_NODE, serviceKey: 'another' });
		expect(other.requests.map((r) => r.page_size)).toEqual([100]);
	});

	it('does not fall back from a Page Size the user set: the refusal is the error', async () => {
		const server = fakeServer({ total: 45, refuseAbove: 20 });
		await expect(run(server, { pageSize: 50 })).rejects.toThrow(/page_size must be at most 20/);
		expect(server.requests).toHaveLength(1);
	});

	it('a 4xx on the first page of 100 is asked again once with 20; when 20 is refused too, that refusal is the error and nothing is remembered', async () => {
		const asked: IDataObject[] = [];
		const refuseEverything = async (qs: IDataObject) => {
			asked.push(qs);
			throw n8nRequestError(400, { error: `status is invalid (request ${asked.length})` });
		};
		const listing = { collectionKey: 'things', idKeys: ['id'], query: {} };
		const options = { node: FAKE_NODE, serviceKey: 'bad-filter' };
		const error = await readPages(refuseEverything, listing, options, () => undefined).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toMatch(/request 2/);
		expect(asked.map((r) => r.page_size)).toEqual([100, 20]);

		const server = fakeServer({ total: 5 });
		await readPages(server.handle, listing, options, () => undefined);
		expect(server.requests.map((r) => r.page_size)).toEqual([100]);
	});

	// Refusals of 100 as other services may word and shape them: none names page_size.
	it.each([
		{ status: 400, body: { error: 'Invalid request parameters' } },
		{ status: 422, body: { errors: [{ message: 'limit exceeded' }] } },
		{ status: 413, body: 'Too large' },
		{ status: 404, body: { message: 'Not Found' } },
	])('a refusal of 100 as $status $body: 20 per page, every record once, remembered for the service', async ({ status, body }) => {
		const server = fakeServer({ total: 45 });
		const refusing = async (qs: IDataObject) => {
			if (Number(qs.page_size) > 20) throw n8nRequestError(status, body);
			return await server.handle(qs);
		};
		const listing = { collectionKey: 'things', idKeys: ['id'], query: {} };
		const options = { node: FAKE_NODE, serviceKey: `refusing-${status}` };
		const seen: Array<{ id: number }> = [];
		await readPages(refusing, listing, options, (record) => seen.push(record as { id: number }));
		expect(ids(seen)).toEqual(server.records.map((r) => r.id));
		expect(server.requests.map((r) => r.page_size)).toEqual([20, 20, 20]);

		server.requests.length = 0;
		await readPages(refusing, listing, options, () => undefined);
		expect(server.requests.map((r) => r.page_size)).toEqual([20, 20, 20]);
	});

	it.each([401, 403, 429])('a %i on the first page is not a refusal of the size: no second request', async (status) => {
		const asked: IDataObject[] = [];
		const error = await readPages(
			async (qs) => {
				asked.push(qs);
				throw n8nRequestError(status, { message: 'no' });
			},
			{ collectionKey: 'things', idKeys: ['id'], query: {} },
			{ node: FAKE_NODE, serviceKey: `not-size-${status}` },
			() => undefined,
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(asked).toHaveLength(1);
	});
});

describe('readPages: expired cursors', () => {
	it('restarts from the first page and skips records already returned: every record once, in order', async () => {
		// The third request (page 3's cursor) is answered "expired", as the sandbox words it.
		const server = fakeServer({ total: 250 });
		let calls = 0;
		const items: number[] = [];
		await readPages(
			async (qs) => {
				calls++;
				if (calls === 3) throw n8nRequestError(400, { error: 'after cursor has expired; start again from the first page' });
				return await server.handle(qs);
			},
			{ collectionKey: 'things', idKeys: ['id'], query: { vendor_sku: 'x' } },
			{ node: FAKE_NODE, serviceKey: 'expiring', pageSize: 40 },
			(record) => items.push((record as { id: number }).id),
		);
		expect(items).toEqual(server.records.map((r) => r.id));
		// pages 1-2 (80 records), the expired request, then from the start: 40, 80 skipped, 120 …
		expect(server.requests[2]).toEqual({ vendor_sku: 'x', page_size: 40 });
		expect(server.requests).toHaveLength(2 + 7);
	});

	// Expiries as other services may answer them: no status, shape or wording of these is in the contract.
	it.each([
		{ status: 404, body: { message: 'Not Found' }, shape: n8nRequestError },
		{ status: 410, body: 'Gone', shape: n8nRequestError },
		{ status: 422, body: { errors: [{ message: 'Invalid parameter' }] }, shape: n8nRequestError },
		{ status: 400, body: { error: 'Bad Request' }, shape: n8n1RequestError },
		{ status: 409, body: { message: 'Snapshot no longer available' }, shape: n8n1RequestError },
	])('a $status $body to a page with a cursor ($shape.name): restart, every record exactly once', async ({ status, body, shape }) => {
		const server = fakeServer({ total: 250 });
		let calls = 0;
		const items: number[] = [];
		await readPages(
			async (qs) => {
				calls++;
				if (calls === 3) throw shape(status, body);
				return await server.handle(qs);
			},
			{ collectionKey: 'things', idKeys: ['id'], query: {} },
			{ node: FAKE_NODE, serviceKey: `expiring-${status}` },
			(record) => items.push((record as { id: number }).id),
		);
		expect(items).toEqual(server.records.map((r) => r.id));
		expect(server.requests[2].after).toBeUndefined();
	});

	it.each([401, 403, 429])('a %i to a page with a cursor is the error, not an expiry: no restart', async (status) => {
		const server = fakeServer({ total: 250 });
		let calls = 0;
		const error = await readPages(
			async (qs) => {
				calls++;
				if (calls === 2) throw n8nRequestError(status, { message: 'after cursor has expired' });
				return await server.handle(qs);
			},
			{ collectionKey: 'things', idKeys: ['id'], query: {} },
			{ node: FAKE_NODE, serviceKey: `no-restart-${status}` },
			() => undefined,
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(calls).toBe(2);
	});

	it('a 4xx to the first page of a restarted listing is the error (the size was served before): no fallback to 20', async () => {
		const server = fakeServer({ total: 250 });
		let calls = 0;
		const error = await readPages(
			async (qs) => {
				calls++;
				if (calls >= 2) throw n8nRequestError(400, { error: 'Bad Request' });
				return await server.handle(qs);
			},
			{ collectionKey: 'things', idKeys: ['id'], query: {} },
			{ node: FAKE_NODE, serviceKey: 'restart-refused' },
			() => undefined,
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		// page 1, the refused cursor, the refused first page of the restart
		expect(calls).toBe(3);
	});

	it('a Limit re-read after an expiry asks for full pages and is cut at the limit', async () => {
		const server = fakeServer({ total: 100 });
		let calls = 0;
		const items: number[] = [];
		await readPages(
			async (qs) => {
				calls++;
				if (calls === 3) throw n8nRequestError(410, 'Gone');
				return await server.handle(qs);
			},
			{ collectionKey: 'things', idKeys: ['id'], query: {} },
			{ node: FAKE_NODE, serviceKey: 'limit-expiring', limit: 45 },
			(record) => items.push((record as { id: number }).id),
		);
		expect(items).toEqual(server.records.slice(0, 45).map((r) => r.id));
		// 20, 20, (5 refused), then from the start: 20 and 20 skipped, 20 of which 5 are taken.
		expect(server.requests.map((r) => r.page_size)).toEqual([20, 20, 20, 20, 20]);
	});

	it('a cursor that always expires: a few fruitless restarts, then a clear error saying how far it got', async () => {
		// Every cursor has expired by the time it is used: each restart reads page 1 again and gets no further.
		const server = fakeServer({ total: 1000, cursorLifetimeRequests: 0 });
		const error = await run(server, { pageSize: 10 }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/kept refusing the page cursor: 10 records were read/);
		expect((error as NodeOperationError).description).toMatch(/HTTP 400: after cursor has expired/);
	});

	it('a restarted listing whose records have no id stops with an error instead of repeating records', async () => {
		let calls = 0;
		const error = await readPages(
			async (qs) => {
				calls++;
				if (qs.after !== undefined && calls === 2) throw n8nRequestError(400, { error: 'after cursor has expired' });
				return { things: [{ name: 'a' }], page_info: { has_next_page: true, end_cursor: `c${calls}` } };
			},
			{ collectionKey: 'things', idKeys: ['id'], query: {} },
			{ node: FAKE_NODE, serviceKey: 'no-ids', limit: 5 },
			() => undefined,
		).catch((e: unknown) => e);
		expect((error as Error).message).toMatch(/cursor expired and its records have no "id"/);
	});
});

describe('readPages: Limit', () => {
	it.each([
		{ limit: 5, total: 100, expectedSizes: [5] },
		{ limit: 20, total: 100, expectedSizes: [20] },
		{ limit: 45, total: 100, expectedSizes: [20, 20, 5] },
		{ limit: 50, total: 12, expectedSizes: [20] },
	])('Limit $limit of $total asks for $expectedSizes and returns min(limit, total)', async ({ limit, total, expectedSizes }) => {
		const server = fakeServer({ total });
		const items = await run(server, { limit });
		expect(ids(items)).toEqual(server.records.slice(0, limit).map((r) => r.id));
		expect(server.requests.map((r) => r.page_size)).toEqual(expectedSizes);
		expect(DEFAULT_PAGE_SIZE).toBe(20);
	});

	it('cuts a page that is longer than asked for, and stops requesting once it has the limit', async () => {
		const server = fakeServer({ total: 100, fixedPageSize: 30 });
		const items = await run(server, { limit: 7 });
		expect(ids(items)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		expect(server.requests).toHaveLength(1);
	});

	it('keeps asking while a short page leaves it below the limit', async () => {
		const server = fakeServer({ total: 100, maxPageSize: 3 });
		const items = await run(server, { limit: 8 });
		expect(ids(items)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
		expect(server.requests.map((r) => r.page_size)).toEqual([8, 5, 2]);
	});

	it('stops, incomplete, at a request budget', async () => {
		const server = fakeServer({ total: 1000 });
		const seen: unknown[] = [];
		const result = await readPages(server.handle, { collectionKey: 'things', idKeys: ['id'], query: {} }, { node: FAKE_NODE, serviceKey: 'b', maxRequests: 3 }, (r) => seen.push(r));
		expect(result).toEqual({ records: 300, requests: 3, complete: false });
		expect(seen).toHaveLength(300);
	});
});

describe('readPages: a misbehaving server', () => {
	it('stops with a clear error when the server repeats a cursor', async () => {
		const server = fakeServer({ total: 2000, repeatCursorFromPage: 3 });
		const error = await run(server).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/same page cursor twice \(page 3\)/);
		expect(server.requests).toHaveLength(3);
	});

	it('stops with a clear error when has_next_page comes without an end_cursor', async () => {
		const server = fakeServer({ total: 2000, missingCursorOnPage: 2 });
		const error = await run(server).catch((e: unknown) => e);
		expect((error as Error).message).toMatch(/another page after page 2 but gave no cursor/);
		expect(server.requests).toHaveLength(2);
	});

	it('stops after a run of empty pages that claim more', async () => {
		const server = fakeServer({ total: 0, alwaysEmpty: true });
		await expect(run(server)).rejects.toThrow(/empty pages in a row/);
		expect(server.requests).toHaveLength(5);
	});

	it('stops at the first page that lacks the collection key, naming the key and the page', async () => {
		let requests = 0;
		const fetchPage = async () => {
			requests++;
			return { products: [{ id: 1 }], page_info: { has_next_page: true, end_cursor: `c${requests}` } };
		};
		await expect(
			readPages(fetchPage, { collectionKey: 'things', idKeys: ['id'], query: {} }, { node: FAKE_NODE, serviceKey: 'k' }, () => undefined),
		).rejects.toThrow(/The service's answer has no "things" list \(page 1\)/);
		expect(requests).toBe(1);
	});

	it('maps a failed request through the error mapper, naming the input item', async () => {
		const failure = n8nRequestError(500, { error: 'database unavailable' });
		const error = await readPages(
			async () => {
				throw failure;
			},
			{ collectionKey: 'things', idKeys: ['id'], query: {} },
			{ node: FAKE_NODE, serviceKey: 'k', itemIndex: 2 },
			() => undefined,
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).message).toMatch(/HTTP 500/);
		expect((error as NodeApiError).description).toMatch(/database unavailable/);
		expect((error as NodeApiError).context.itemIndex).toBe(2);
	});
});
