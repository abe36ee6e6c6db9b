import { useSandbox, validItem, type Json } from './helpers';

const { sb, api } = useSandbox();

interface Listing {
	path: string;
	key: string;
	query: Record<string, string>;
	id: (r: Json) => unknown;
}

const LISTINGS: Listing[] = [
	{ path: '/v1/items', key: 'products', query: { validation_status: 'approved' }, id: (r) => r.item_id },
	{ path: '/v1/items/non_approved', key: 'products', query: {}, id: (r) => r.item_id },
	{ path: '/v1/consignments', key: 'consignments', query: {}, id: (r) => r.id },
	{ path: '/v1/vendor/addresses', key: 'addresses', query: {}, id: (r) => r.address_id },
];

async function page(l: Listing, extra: Record<string, string | undefined>) {
	return api().get(l.path, { ...l.query, ...extra });
}

describe.each(LISTINGS)('pagination of $path', (l) => {
	it('walks forward with after and back with before, in a stable order, with complete page_info', async () => {
		const full = await page(l, { page_size: '100' });
		const expected = full.body[l.key].map(l.id);
		expect(expected.length).toBeGreaterThanOrEqual(3);

		const forward: unknown[] = [];
		let res = await page(l, { page_size: '2' });
		expect(res.body.page_info.has_previous_page).toBe(false);
		const pages: Json[] = [];
		for (;;) {
			expect(res.status).toBe(200);
			pages.push(res.body);
			forward.push(...res.body[l.key].map(l.id));
			const info = res.body.page_info;
			expect(Object.keys(info).sort()).toEqual(['end_cursor', 'has_next_page', 'has_previous_page', 'start_cursor']);
			expect(typeof info.start_cursor).toBe('string');
			expect(typeof info.end_cursor).toBe('string');
			if (!info.has_next_page) break;
			res = await page(l, { page_size: '2', after: info.end_cursor });
			expect(res.body.page_info.has_previous_page).toBe(true);
		}
		expect(forward).toEqual(expected);

		// Back from the last page with before = start_cursor.
		const backward: unknown[] = [...pages[pages.length - 1][l.key].map(l.id)];
		let info = pages[pages.length - 1].page_info;
		while (info.has_previous_page) {
			res = await page(l, { page_size: '2', before: info.start_cursor });
			expect(res.status).toBe(200);
			expect(res.body.page_info.has_next_page).toBe(true);
			backward.unshift(...res.body[l.key].map(l.id));
			info = res.body.page_info;
		}
		expect(backward).toEqual(expected);
	});

	it('answers an empty page with null cursors after the last record', async () => {
		const full = await page(l, { page_size: '100' });
		const res = await page(l, { page_size: '100', after: full.body.page_info.end_cursor });
		expect(res.status).toBe(200);
		expect(res.body[l.key]).toEqual([]);
		expect(res.body.page_info).toEqual({ start_cursor: null, end_cursor: null, has_previous_page: true, has_next_page: false });
	});

	it('uses base64 cursors that are refused (400) when malformed or tampered with', async () => {
		const first = await page(l, { page_size: '1' });
		const cursor: string = first.body.page_info.end_cursor;
		expect(Buffer.from(cursor, 'base64').toString('base64')).toBe(cursor);
		const decoded = Buffer.from(cursor, 'base64').toString('utf8');
		const tampered = Buffer.from(decoded.replace(/\\"k\\":(\d+)/, '\\"k\\":1$1')).toString('base64');
		for (const bad of ['not a cursor', Buffer.from('{"k":1}').toString('base64'), tampered]) {
			for (const param of ['after', 'before']) {
				const res = await page(l, { [param]: bad });
				expect([param, bad, res.status]).toEqual([param, bad, 400]);
				expect(res.body.error).toMatch(new RegExp(param));
			}
		}
	});

	it('expires cursors 15 minutes (sandbox clock) after they were issued', async () => {
		const first = await page(l, { page_size: '1' });
		// One second of slack for the real time that passes between the requests.
		await sb().admin.advanceClock(15 * 60 - 1);
		expect((await page(l, { page_size: '1', after: first.body.page_info.end_cursor })).status).toBe(200);
		await sb().admin.advanceClock(2);
		const res = await page(l, { page_size: '1', after: first.body.page_info.end_cursor });
		expect(res.status).toBe(400);
		expect(res.body.error).toMatch(/expired/);
	});

	it('refuses page_size that is not a positive integer, and after with before', async () => {
		for (const size of ['0', '-1', 'abc', '2.5']) {
			const res = await page(l, { page_size: size });
			expect([size, res.status]).toEqual([size, 400]);
			expect(res.body.error).toMatch(/page_size/);
		}
		const first = await page(l, { page_size: '1' });
		const both = await page(l, { after: first.body.page_info.end_cursor, before: first.body.page_info.start_cursor });
		expect(both.status).toBe(400);
	});
});

describe('cursor binding', () => {
	it('refuses (400) a cursor from another listing', async () => {
		const cursors: Record<string, string> = {};
		for (const l of LISTINGS) cursors[l.path] = (await page(l, { page_size: '1' })).body.page_info.end_cursor;
		for (const l of LISTINGS) {
			for (const [from, cursor] of Object.entries(cursors)) {
				if (from === l.path) continue;
				const res = await page(l, { after: cursor });
				expect([l.path, from, res.status]).toEqual([l.path, from, 400]);
				expect(res.body.error).toMatch(/another listing/);
			}
		}
	});

	it('refuses (400) a cursor used with other filters than it was made with', async () => {
		const first = await api().get('/v1/items', { validation_status: 'approved', page_size: '2' });
		const cursor = first.body.page_info.end_cursor;
		const dropped = await api().get('/v1/items', { page_size: '2', after: cursor });
		expect(dropped.status).toBe(400);
		expect(dropped.body.error).toMatch(/filters/);
		const changed = await api().get('/v1/items', { validation_status: 'pending', page_size: '2', after: cursor });
		expect(changed.status).toBe(400);
		// Case does not matter: the filter is case-insensitive.
		const sameFilter = await api().get('/v1/items', { validation_status: 'Approved', page_size: '2', after: cursor });
		expect(sameFilter.status).toBe(200);
	});
});

describe('page sizes', () => {
	it('defaults to 20', async () => {
		for (const l of LISTINGS.slice(0, 2)) {
			const res = await page(l, {});
			expect(res.body[l.key]).toHaveLength(20);
			expect(res.body.page_info.has_next_page).toBe(true);
		}
	});

	it('silently clamps page_size to 100, so a client may get fewer records than it asked for', async () => {
		const items = Array.from({ length: 90 }, (_, i) => validItem({ vendor_sku: `BULK-${i}` }));
		expect((await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items } })).status).toBe(200);
		const res = await api().get('/v1/items/non_approved', { page_size: '500' });
		expect(res.status).toBe(200);
		expect(res.body.products).toHaveLength(100);
		expect(res.body.page_info.has_next_page).toBe(true);
		const rest = await api().get('/v1/items/non_approved', { page_size: '500', after: res.body.page_info.end_cursor });
		expect(rest.body.products).toHaveLength(26 + 90 - 100);
		expect(rest.body.page_info.has_next_page).toBe(false);
	});
});
