// Cursor pagination shared by the four collections. A cursor is base64 of a signed JSON payload naming the
// listing it came from, the filters it was made with, the sort key of its record and when it was issued.
// Using it on another listing, with other filters, after CURSOR_LIFETIME_SECONDS, or altered, answers 400.
import { createHmac, timingSafeEqual } from 'node:crypto';

import { fail } from './http';

export const DEFAULT_PAGE_SIZE = 20;
/** Larger page_size values are clamped silently: clients must not assume their page size was honoured. */
export const MAX_PAGE_SIZE = 100;
export const CURSOR_LIFETIME_SECONDS = 15 * 60;

export interface PageInfo {
	start_cursor: string | null;
	end_cursor: string | null;
	has_previous_page: boolean;
	has_next_page: boolean;
}

interface CursorPayload {
	/** Listing the cursor belongs to. */
	e: string;
	/** Normalised filters it was made with. */
	f: string;
	/** Sort key of the record it points at. */
	k: number;
	/** Issue time, sandbox clock ms. */
	t: number;
}

export interface PaginationContext {
	/** Listing name, e.g. `GET /v1/items`. */
	endpoint: string;
	/** Filters in effect, already normalised (e.g. lower-cased where matching is case-insensitive). */
	filters: Record<string, string | undefined>;
	query: Record<string, string>;
	nowMs: number;
	key: Buffer;
}

export function paginate<T>(records: T[], sortKey: (r: T) => number, ctx: PaginationContext): { page: T[]; page_info: PageInfo } {
	const pageSize = parsePageSize(ctx.query.page_size);
	const filters = canonicalFilters(ctx.filters);
	const after = ctx.query.after || undefined;
	const before = ctx.query.before || undefined;
	if (after && before) throw fail(400, 'after and before cannot be used together');
	const sorted = [...records].sort((a, b) => sortKey(a) - sortKey(b));

	let start = 0;
	let end = Math.min(pageSize, sorted.length);
	if (after) {
		const k = decodeCursor('after', after, ctx, filters);
		start = countWhere(sorted, (r) => sortKey(r) <= k);
		end = Math.min(start + pageSize, sorted.length);
	} else if (before) {
		const k = decodeCursor('before', before, ctx, filters);
		end = countWhere(sorted, (r) => sortKey(r) < k);
		start = Math.max(0, end - pageSize);
	}
	const page = sorted.slice(start, end);
	const cursor = (r: T) => encodeCursor({ e: ctx.endpoint, f: filters, k: sortKey(r), t: ctx.nowMs }, ctx.key);
	return {
		page,
		page_info: {
			start_cursor: page.length ? cursor(page[0]) : null,
			end_cursor: page.length ? cursor(page[page.length - 1]) : null,
			has_previous_page: start > 0,
			has_next_page: end < sorted.length,
		},
	};
}

function parsePageSize(raw: string | undefined): number {
	if (raw === undefined || raw === '') return DEFAULT_PAGE_SIZE;
	if (!/^\d+$/.test(raw) || Number(raw) < 1) throw fail(400, 'page_size is invalid: must be a positive integer');
	return Math.min(Number(raw), MAX_PAGE_SIZE);
}

function canonicalFilters(filters: Record<string, string | undefined>): string {
	return JSON.stringify(
		Object.keys(filters)
			.filter((k) => filters[k] !== undefined)
			.sort()
			.map((k) => [k, filters[k]]),
	);
}

function countWhere<T>(sorted: T[], pred: (r: T) => boolean): number {
	let n = 0;
	while (n < sorted.length && pred(sorted[n])) n++;
	return n;
}

function signature(body: string, key: Buffer): Buffer {
	return createHmac('sha256', key).update(body).digest().subarray(0, 12);
}

function encodeCursor(payload: CursorPayload, key: Buffer): string {
	const body = JSON.stringify(payload);
	return Buffer.from(JSON.stringify({ p: body, s: signature(body, key).toString('hex') })).toString('base64');
}

function decodeCursor(param: string, raw: string, ctx: PaginationContext, filters: string): number {
	let payload: CursorPayload;
	try {
		if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) throw new Error('not base64');
		const outer = JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as { p: string; s: string };
		const given = Buffer.from(String(outer.s), 'hex');
		const expected = signature(String(outer.p), ctx.key);
		if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('bad signature');
		payload = JSON.parse(outer.p) as CursorPayload;
		if (typeof payload.k !== 'number' || typeof payload.t !== 'number') throw new Error('bad payload');
	} catch {
		throw fail(400, `${param} is not a valid cursor`);
	}
	if (payload.e !== ctx.endpoint) throw fail(400, `${param} is a cursor of another listing; cursors work only on the listing that returned them`);
	if (payload.f !== filters) throw fail(400, `${param} cursor was made with different filters; send the same filters on every page`);
	if (ctx.nowMs - payload.t > CURSOR_LIFETIME_SECONDS * 1000) throw fail(400, `${param} cursor has expired; start again from the first page`);
	return payload.k;
}
