// The sandbox's paging knobs (POST /__sandbox/paging) and bulk seed (POST /__sandbox/seed/items): what a client
// meets when a service's page sizes or cursor lifetime differ from the defaults.
import { useSandbox } from './helpers';

const { sb, api } = useSandbox();

const approved = (extra: Record<string, string> = {}) => api().get('/v1/items', { validation_status: 'approved', ...extra });

describe('paging settings', () => {
	it('defaults: 20 per page without page_size, 100 at most, larger sizes clamped silently, cursors live 15 minutes', async () => {
		expect(await sb().admin.paging()).toEqual({
			defaultPageSize: 20,
			maxPageSize: 100,
			aboveMaximum: 'clamp',
			cursorLifetimeSeconds: 900,
			expiredCursorStatus: 400,
			expiredCursorBody: 'error',
			expiredCursorMessage: null,
			pageSizeRefusalStatus: 400,
			pageSizeRefusalBody: 'error',
			pageSizeRefusalMessage: null,
			variantsPerItem: 1,
		});
		await sb().admin.seedManyItems({ count: 150 });
		expect((await approved()).body.products).toHaveLength(20);
		const large = await approved({ page_size: '500' });
		expect(large.status).toBe(200);
		expect(large.body.products).toHaveLength(100);
		expect(large.body.page_info.has_next_page).toBe(true);
	});

	it('a lower maximum with reject: 400 naming page_size above it, served at or below it', async () => {
		await sb().admin.setPaging({ maxPageSize: 20, aboveMaximum: 'reject', defaultPageSize: 10 });
		const refused = await approved({ page_size: '21' });
		expect(refused.status).toBe(400);
		expect(refused.body.error).toMatch(/page_size/);
		expect((await approved({ page_size: '20' })).body.products).toHaveLength(20);
		expect((await approved()).body.products).toHaveLength(10);
	});

	it('a lower maximum with clamp: fewer records than asked, has_next_page says more', async () => {
		await sb().admin.setPaging({ maxPageSize: 7 });
		const res = await approved({ page_size: '100' });
		expect(res.body.products).toHaveLength(7);
		expect(res.body.page_info.has_next_page).toBe(true);
	});

	it('cursor lifetime: a cursor older than it answers 400 "expired"; reset restores every default', async () => {
		await sb().admin.setPaging({ cursorLifetimeSeconds: 30 });
		const first = await approved({ page_size: '5' });
		await sb().admin.advanceClock(20);
		expect((await approved({ page_size: '5', after: first.body.page_info.end_cursor })).status).toBe(200);
		await sb().admin.advanceClock(15);
		const expired = await approved({ page_size: '5', after: first.body.page_info.end_cursor });
		expect(expired.status).toBe(400);
		expect(expired.body.error).toMatch(/after cursor has expired/);
		await sb().admin.reset();
		expect((await sb().admin.paging()).cursorLifetimeSeconds).toBe(900);
	});

	it('refuses bad settings with a 400 naming the field', async () => {
		await expect(sb().admin.setPaging({ maxPageSize: 0 })).rejects.toThrow(/maxPageSize must be an integer >= 1/);
		await expect(sb().admin.setPaging({ aboveMaximum: 'drop' as never })).rejects.toThrow(/aboveMaximum must be/);
		await expect(sb().admin.setPaging({ expiredCursorStatus: 500 })).rejects.toThrow(/expiredCursorStatus must be a 4xx status/);
		await expect(sb().admin.setPaging({ pageSizeRefusalBody: 'html' as never })).rejects.toThrow(/pageSizeRefusalBody must be one of/);
		await expect(sb().admin.setPaging({ expiredCursorMessage: '' })).rejects.toThrow(/expiredCursorMessage must be a non-empty string or null/);
		await expect(sb().admin.setPaging({ variantsPerItem: 11 })).rejects.toThrow(/variantsPerItem must be/);
	});

	/** The raw answer (status, Content-Type, text) of one listing request, whatever its body's form. */
	async function rawGet(query: Record<string, string>) {
		const url = new URL('/v1/items', sb().baseUrl);
		for (const [key, value] of Object.entries({ validation_status: 'approved', ...query })) url.searchParams.set(key, value);
		const res = await fetch(url, { headers: { Authorization: `Bearer ${await api().newToken()}` } });
		return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
	}

	it.each([
		{ status: 410, body: 'message', expected: { message: 'Gone for good' } },
		{ status: 404, body: 'errors', expected: { errors: [{ message: 'Gone for good' }] } },
		{ status: 422, body: 'error', expected: { error: 'Gone for good' } },
	] as const)('an expired cursor answered $status with {$body}', async ({ status, body, expected }) => {
		await sb().admin.setPaging({ cursorLifetimeSeconds: 30, expiredCursorStatus: status, expiredCursorBody: body, expiredCursorMessage: 'Gone for good' });
		const first = await approved({ page_size: '5' });
		await sb().admin.advanceClock(31);
		const expired = await rawGet({ page_size: '5', after: first.body.page_info.end_cursor });
		expect(expired.status).toBe(status);
		expect(JSON.parse(expired.text)).toEqual(expected);
	});

	it('an expired cursor and a refused page size as plain text, in words of their own', async () => {
		await sb().admin.setPaging({
			cursorLifetimeSeconds: 30,
			expiredCursorStatus: 400,
			expiredCursorBody: 'text',
			expiredCursorMessage: 'Bad Request',
			maxPageSize: 20,
			aboveMaximum: 'reject',
			pageSizeRefusalStatus: 422,
			pageSizeRefusalBody: 'text',
			pageSizeRefusalMessage: 'Unprocessable request',
		});
		const refused = await rawGet({ page_size: '21' });
		expect(refused).toEqual({ status: 422, type: 'text/plain; charset=utf-8', text: 'Unprocessable request' });
		const first = await approved({ page_size: '5' });
		await sb().admin.advanceClock(31);
		expect(await rawGet({ page_size: '5', after: first.body.page_info.end_cursor })).toEqual({ status: 400, type: 'text/plain; charset=utf-8', text: 'Bad Request' });
	});

	it('variantsPerItem: GET /v1/items lists each item as that many variants (own id, shared item_id), paged by variant', async () => {
		await sb().admin.setPaging({ variantsPerItem: 2 });
		const first = await approved({ page_size: '3' });
		const second = await approved({ page_size: '3', after: first.body.page_info.end_cursor });
		const records = [...first.body.products, ...second.body.products] as Array<{ id: number; item_id: number }>;
		expect(records.map((r) => r.item_id)).toEqual([50001, 50001, 50003, 50003, 50005, 50005]);
		expect(new Set(records.map((r) => r.id)).size).toBe(6);
		expect(records[0].id).toBe(900001);
		expect((await api().get('/v1/items/non_approved', { page_size: '4' })).body.products).toHaveLength(4);
	});
});

describe('bulk seed (seedManyItems)', () => {
	it('adds items with running SKUs in the given status, listed like any other', async () => {
		const before = (await sb().admin.state()).items.length;
		const seeded = await sb().admin.seedManyItems({ count: 250, status: 'pending', skuPrefix: 'LOAD-', firstNumber: 7 });
		expect(seeded.count).toBe(250);
		const { items } = await sb().admin.state();
		expect(items).toHaveLength(before + 250);
		const one = await api().get('/v1/items/non_approved', { vendor_sku: 'load-256' });
		expect(one.body.products).toEqual([expect.objectContaining({ vendor_sku: 'LOAD-256', item_status: 'pending', item_id: seeded.first_item_id + 249 })]);
	});

	it('refuses a bad count or status', async () => {
		await expect(sb().admin.seedManyItems({ count: 0 })).rejects.toThrow(/count must be an integer/);
		await expect(sb().admin.seedManyItems({ count: 1, status: 'sold' as never })).rejects.toThrow(/status must be one of/);
	});
});
