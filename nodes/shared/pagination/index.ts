/**
 * The one cursor paginator (list operations, Upsert's catalog read). Rules (docs/vendor-api.md, "Pagination rules"):
 * - Limit asks only for what is still missing and stops once it has N; Return All asks for 100 per page (fewer
 *   requests; the maximum is undocumented), Limit the recommended 20; a size the user set is always sent as it is.
 * - `page_size` is never assumed honoured: short pages are followed by cursor, long ones cut at the limit.
 * - A refused page is judged by which request it was, never by the answer's wording (pageRefusal.ts):
 *   our own 100 refused on the first page → asked once with 20 (remembered per credential once served);
 *   refused with a cursor → the cursor is taken as expired and the listing restarts, skipping records already
 *   returned by `Listing.idKeys`, until restarts stop making progress.
 * - A repeated cursor, `has_next_page` without a cursor, or a run of empty pages stop with an error, never loop.
 * Records are handed over one at a time: spreading them (RoutingNode's `push(...records)`) overflows the stack
 * above ~120,000 records.
 */import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeApiError } from '../errors';
import { apiRequest, type ApiContext } from '../transport';
import { readHttpFailure, serviceMessage } from '../httpFailure';
import { pageRefusalAction } from './pageRefusal';
import { ReturnedIdentities } from './returnedIdentities';

export const DEFAULT_PAGE_SIZE = 20;
export const LARGE_PAGE_SIZE = 100;

/** Consecutive empty pages that still claim `has_next_page` before the paginator gives up. */
const MAX_EMPTY_PAGES_IN_A_ROW = 5;
/** Restarts after an expired cursor that returned no new record, in a row, before giving up. */
const MAX_FRUITLESS_RESTARTS = 2;
/** Restarts in all, whatever their progress: each re-reads the listing from its start. */
const MAX_RESTARTS = 10;

interface PageInfo {
	hasNextPage: boolean;
	endCursor?: string;
}

export function readPageInfo(body: IDataObject): PageInfo {
	const info = (body.page_info ?? {}) as IDataObject;
	const hasNext = info.has_next_page;
	const cursor = info.end_cursor;
	return {
		// Some listings label these fields loosely (contract, rule 6); a string "true" means true.
		hasNextPage: hasNext === true || hasNext === 'true',
		endCursor:
			typeof cursor === 'string' && cursor !== ''
				? cursor
				: typeof cursor === 'number'
					? String(cursor)
					: undefined,
	};
}

export interface Listing {
	collectionKey: string;
	/** First present wins. Item listings hold variants: two variants of one item share `item_id`, so `id` first. */
	idKeys: string[];
	/** Filters, sent on every page. */
	query: IDataObject;
}

export interface PagingOptions {
	node: INode;
	itemIndex?: number;
	/** Return at most this many; undefined = Return All. */
	limit?: number;
	/** Page size the user set; undefined = chosen here. */
	pageSize?: number;
	/** One key per credential (base URL + client id): where a refused large page size is remembered. */
	serviceKey: string;
	/** Stop (incomplete) before requesting more than this many pages; undefined = no budget. */
	maxRequests?: number;
}

interface PagingResult {
	records: number;
	/** Requests made, refused ones included. */
	requests: number;
	/** False when `maxRequests` stopped the listing before its end. */
	complete: boolean;
}

/** Services (credential keys) that refused LARGE_PAGE_SIZE and then served DEFAULT_PAGE_SIZE, in this process. */
const refusedLargePages = new Set<string>();

export function forgetRefusedPageSizes(): void {
	refusedLargePages.clear();
}

/** The first id field present, by name, so that a variant id and an item id of the same number are not confused. */
function identityKey(record: unknown, idKeys: string[]): string | undefined {
	if (record === null || typeof record !== 'object') return undefined;
	for (const key of idKeys) {
		const id = (record as IDataObject)[key];
		if (id !== undefined && id !== null && id !== '') return key;
	}
	return undefined;
}

function quoteRefusal(error: unknown): string {
	const failure = readHttpFailure(error);
	const said = serviceMessage(failure.body);
	return `HTTP ${failure.status ?? '?'}${said ? `: ${said}` : ''}`;
}

/**
 * `readPages`' page request for the listing at `url`: a GET with the node's credential and Request Options;
 * `signal` takes a page still waiting in the queue out of it (the runner's stop).
 */
export function pageRequests(context: ApiContext, url: string, signal?: AbortSignal): (qs: IDataObject) => Promise<IDataObject | undefined> {
	return async (qs) => (await apiRequest(context, { method: 'GET', url, qs, signal })).body as IDataObject | undefined;
}

export async function readPages(
	fetchPage: (query: IDataObject) => Promise<IDataObject | undefined>,
	listing: Listing,
	options: PagingOptions,
	onRecord: (record: unknown) => void,
): Promise<PagingResult> {
	const { limit, serviceKey, node, itemIndex } = options;
	const stop = (message: string, description: string) => new NodeOperationError(node, message, { itemIndex, description });
	const chooseSize = options.pageSize === undefined;
	let pageSize = options.pageSize ?? (limit === undefined && !refusedLargePages.has(serviceKey) ? LARGE_PAGE_SIZE : DEFAULT_PAGE_SIZE);
	// Set when 100 was refused and 20 is being tried: remembered for the credential only once 20 is served.
	let rememberRecommendedSize = false;

	let records = 0;
	let requests = 0;
	// The identities handed over, so a listing restarted after a refused cursor skips them.
	const returned = new ReturnedIdentities();
	let restarts = 0;
	let fruitlessRestarts = 0;
	let recordsAtRestart = 0;

	let after: string | undefined;
	let seenCursors = new Set<string>();
	let emptyPagesInARow = 0;
	let page = 0;
	let pagesServed = 0;

	for (;;) {
		if (options.maxRequests !== undefined && requests >= options.maxRequests) return { records, requests, complete: false };
		page++;
		// Limit asks only for what is still missing, until a restart: a re-read passes the records it skips again,
		// so it asks for full pages (tiny ones would make another expiry likelier) and is cut at the limit.
		const size = limit === undefined || returned.restarted ? pageSize : Math.min(pageSize, limit - records);
		const query: IDataObject = { ...listing.query, page_size: size };
		if (after !== undefined) query.after = after;
		requests++;
		let body: IDataObject | undefined;
		try {
			body = await fetchPage(query);
		} catch (error) {
			const action = pageRefusalAction({
				status: readHttpFailure(error).status,
				carriedCursor: after !== undefined,
				firstPage: pagesServed === 0,
				nodeChoseLargePageSize: chooseSize && pageSize > DEFAULT_PAGE_SIZE,
			});
			if (action === 'fail') throw toNodeApiError(node, error, { itemIndex });
			if (action === 'askRecommendedSize') {
				pageSize = DEFAULT_PAGE_SIZE;
				rememberRecommendedSize = true;
				page--;
				continue;
			}
			restarts++;
			fruitlessRestarts = records > recordsAtRestart ? 0 : fruitlessRestarts + 1;
			recordsAtRestart = records;
			if (restarts > MAX_RESTARTS || fruitlessRestarts > MAX_FRUITLESS_RESTARTS) {
				throw stop(
					`The service kept refusing the page cursor: ${records} records were read (${restarts - 1} restarts from the first page) before it stopped`,
					`Its last answer: ${quoteRefusal(error)}. A refused cursor is taken as expired (cursors may expire): each restart re-reads the listing from its start and skips records already returned. Try again when the service is less busy, use a larger Page Size, or narrow the listing with a filter.`,
				);
			}
			returned.restart();
			after = undefined;
			seenCursors = new Set();
			emptyPagesInARow = 0;
			page = 0;
			continue;
		}
		pagesServed++;
		if (rememberRecommendedSize) {
			refusedLargePages.add(serviceKey);
			rememberRecommendedSize = false;
		}

		const pageRecords = body?.[listing.collectionKey];
		if (!Array.isArray(pageRecords)) {
			throw stop(
				`The service's answer has no "${listing.collectionKey}" list (page ${page})`,
				'The response did not have the documented shape; nothing was returned.',
			);
		}
		for (const record of pageRecords) {
			if (limit !== undefined && records >= limit) break;
			const key = identityKey(record, listing.idKeys);
			const id = key === undefined ? undefined : (record as IDataObject)[key];
			if (returned.restarted) {
				if (key === undefined) {
					throw stop(
						`The service's page cursor expired and its records have no "${listing.idKeys.join('" or "')}" to skip those already returned`,
						`${records} records had been read. Try again, or use a larger Page Size so the listing needs fewer pages.`,
					);
				}
				if (returned.has(key, id)) continue;
			}
			if (key !== undefined) returned.note(key, id);
			records++;
			onRecord(record);
		}
		if (limit !== undefined && records >= limit) break;

		const { hasNextPage, endCursor } = readPageInfo(body as IDataObject);
		if (!hasNextPage) break;
		if (endCursor === undefined) {
			throw stop(
				`The service said there is another page after page ${page} but gave no cursor to fetch it (page_info.end_cursor is missing)`,
				'Stopped instead of guessing, to avoid returning records twice or looping.',
			);
		}
		if (seenCursors.has(endCursor)) {
			throw stop(
				`The service returned the same page cursor twice (page ${page}); stopped to avoid an endless loop`,
				`${records} records had been read. Try again later; if it persists, report it to the service.`,
			);
		}
		emptyPagesInARow = pageRecords.length === 0 ? emptyPagesInARow + 1 : 0;
		if (emptyPagesInARow >= MAX_EMPTY_PAGES_IN_A_ROW) {
			throw stop(
				`The service returned ${emptyPagesInARow} empty pages in a row while saying more follow; stopped to avoid an endless loop`,
				`${records} records had been read.`,
			);
		}
		seenCursors.add(endCursor);
		after = endCursor;
	}
	return { records, requests, complete: true };
}
