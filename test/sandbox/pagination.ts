// Cursor pagination shared by the four collections. A cursor is base64 of a signed JSON payload naming the
// listing it came from, the filters it was made with, the sort key of its record and when it was issued.
// Using it on another listing, with other filters, or altered, answers 400; after the cursor lifetime, the
// expired-cursor answer of the paging settings (400 by default).
// Page sizes and cursor lifetime are the sandbox's paging settings (paging-settings.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';

import { fail } from './http';
import { DEFAULT_PAGING, expiredCursor, pageSizeOf, type PagingSettings } from './paging-settings';

export const DEFAULT_PAGE_SIZE = DEFAULT_PAGING.defaultPageSize;
/** Larger page_size values are clamped silently by default: clients must not assume their page size was honoured. */
export const MAX_PAGE_SIZE = DEFAULT_PAGING.maxPageSize;
export const CURSOR_LIFETIME_SECONDS = DEFAULT_PAGING.cursorLifetimeSeconds;

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
	/** Default DEFAULT_PAGING. */
	paging?: PagingSettings;
}

/**
 * One page of the `records` that `matches` (default: all), in `sortKey` order. The records are scanned from the
 * cursor's position rather than filtered as a whole, so a page of a 250,000-record listing costs about a page.
 */
export function paginate<T>(
	records: T[],
	sortKey: (r: T) => number,
	ctx: PaginationContext,
	matches: (r: T) => boolean = () => true,
): { page: T[]; page_info: PageInfo } {
	const paging = ctx.paging ?? DEFAULT_PAGING;
	const pageSize = pageSizeOf(ctx.query.page_size, paging);
	const filters = canonicalFilters(ctx.filters);
	const after = ctx.query.after || undefined;
	const before = ctx.query.before || undefined;
	if (after && before) throw fail(400, 'after and before cannot be used together');
	// Listings are usually already in order (ids grow): sorting a copy of a large one on every page would dominate.
	const sorted = isSorted(records, sortKey) ? records : [...records].sort((a, b) => sortKey(a) - sortKey(b));
	const anyMatch = (from: number, step: 1 | -1) => {
		for (let i = from; i >= 0 && i < sorted.length; i += step) if (matches(sorted[i])) return true;
		return false;
	};

	const page: T[] = [];
	let hasPrevious: boolean;
	let hasNext: boolean;
	if (before) {
		const k = decodeCursor('before', before, ctx, filters, paging);
		const end = countWhere(sorted, (r) => sortKey(r) < k);
		let i = end - 1;
		for (; i >= 0 && page.length < pageSize; i--) if (matches(sorted[i])) page.push(sorted[i]);
		page.reverse();
		hasPrevious = anyMatch(i, -1);
		hasNext = anyMatch(end, 1);
	} else {
		const k = after ? decodeCursor('after', after, ctx, filters, paging) : undefined;
		const start = k === undefined ? 0 : countWhere(sorted, (r) => sortKey(r) <= k);
		let i = start;
		for (; i < sorted.length && page.length < pageSize; i++) if (matches(sorted[i])) page.push(sorted[i]);
		hasPrevious = anyMatch(start - 1, -1);
		hasNext = anyMatch(i, 1);
	}
	const cursor = (r: T) => encodeCursor({ e: ctx.endpoint, f: filters, k: sortKey(r), t: ctx.nowMs }, ctx.key);
	return {
		page,
		page_info: {
			start_cursor: page.length ? cursor(page[0]) : null,
			end_cursor: page.length ? cursor(page[page.length - 1]) : null,
			has_previous_page: hasPrevious,
			has_next_page: hasNext,
		},
	};
}

function canonicalFilters(filters: Record<string, string | undefined>): string {
	return JSON.stringify(
		Object.keys(filters)
			.filter((k) => filters[k] !== undefined)
			.sort()
			.map((k) => [k, filters[k]]),
	);
}

/** Per record array, how many leading records are known to be in order (records are only ever appended). */
const verifiedInOrder = new WeakMap<object, number>();

function isSorted<T>(records: T[], sortKey: (r: T) => number): boolean {
	const known = verifiedInOrder.get(records) ?? 0;
	const from = known <= records.length ? Math.max(1, known) : 1;
	for (let i = from; i < records.length; i++) {
		if (sortKey(records[i - 1]) > sortKey(records[i])) {
			verifiedInOrder.delete(records);
			return false;
		}
	}
	verifiedInOrder.set(records, records.length);
	return true;
}

/** How many leading records satisfy `pred` (true then false along `sorted`): a binary search, for large listings. */
function countWhere<T>(sorted: T[], pred: (r: T) => boolean): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (pred(sorted[middle])) low = middle + 1;
		else high = middle;
	}
	return low;
}

function signature(body: string, key: Buffer): Buffer {
	return createHmac('sha256', key).update(body).digest().subarray(0, 12);
}

function encodeCursor(payload: CursorPayload, key: Buffer): string {
	const body = JSON.stringify(payload);
	return Buffer.from(JSON.stringify({ p: body, s: signature(body, key).toString('hex') })).toString('base64');
}

function decodeCursor(param: string, raw: string, ctx: PaginationContext, filters: string, paging: PagingSettings): number {
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
	if (ctx.nowMs - payload.t > paging.cursorLifetimeSeconds * 1000) throw expiredCursor(param, paging);
	return payload.k;
}
