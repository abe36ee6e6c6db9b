/**
 * One cursor paginator for every listing the node reads: the four list operations (items, non-approved items,
 * addresses, consignments; listOperation.ts) and Upsert's read of the vendor's items (itemCatalog.ts).
 *
 * Exported API:
 * - `readPages(fetchPage, listing, options, onRecord)`: reads a listing page by page and hands each record to
 *   `onRecord`, in order, once. It owns every paging rule below; the caller owns the request (`fetchPage`).
 * - `listFields({ resource, operation })`: the `returnAll`, `limit` and Options → Page Size fields.
 * - `readPageInfo(body)`: `{ hasNextPage, endCursor }` of a collection response (also used by listSearch.ts).
 * - `DEFAULT_PAGE_SIZE` (20, the contract's recommended size), `LARGE_PAGE_SIZE` (100).
 * - `forgetRefusedPageSizes()`: for tests, forgets what services refused.
 *
 * Behaviour (contract: docs/vendor-api.md, "Pagination rules"):
 * - first page with `page_size` only (no `after`); then `after = page_info.end_cursor` while
 *   `page_info.has_next_page` is true; the listing's filters are sent on every page;
 * - Limit N returns the first N (or all there are), asks for `min(pageSize, N - collected)` per page and makes no
 *   request once it has N;
 * - page size: one the user set is always sent. Otherwise Return All asks for 100 (fewer requests; the maximum
 *   is not documented): a service that refuses it (400/422 naming page_size) gets the recommended 20 and that is
 *   remembered for the credential in this process; a service that silently sends fewer is followed by cursor.
 *   Limit keeps the recommended 20 per page;
 * - never assumes `page_size` was honoured: a short page with `has_next_page` is followed, a page longer than
 *   asked is cut at the limit;
 * - an expired cursor (cursors "may expire after some time") restarts the listing from its first page and skips
 *   the records already returned, by their id; when restarts stop making progress, an error says how far it got;
 * - a cursor the service already gave, `has_next_page` without an `end_cursor`, or a run of empty pages that
 *   claim more stop with an error instead of looping;
 * - a 429/5xx is repeated by the transport's queue inside `fetchPage`, as the same page.
 *
 * Records are handed over one at a time (never spread into an array: n8n's RoutingNode did `push(...records)`,
 * which overflows the call stack above ~120,000 records).
 */
import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readHttpFailure, serviceMessage, toNodeApiError } from '../../shared/errors';

export const DEFAULT_PAGE_SIZE = 20;
export const LARGE_PAGE_SIZE = 100;

/** Consecutive empty pages that still claim `has_next_page` before the paginator gives up. */
const MAX_EMPTY_PAGES_IN_A_ROW = 5;
/** Restarts after an expired cursor that returned no new record, in a row, before giving up. */
const MAX_FRUITLESS_RESTARTS = 2;
/** Restarts in all, whatever their progress: each re-reads the listing from its start. */
const MAX_RESTARTS = 10;

export interface PageInfo {
	hasNextPage: boolean;
	endCursor?: string;
}

/** `page_info` of a collection response, read leniently (see the comment inside). */
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

/** A listing: where its records are in the answer, which field identifies one, and its filters. */
export interface Listing {
	/** Top-level key of the records in the response: `products`, `consignments` or `addresses`. */
	collectionKey: string;
	/** Fields that identify a record, first present wins (`item_id`; `address_id`, `id`): how a restarted listing skips records. */
	idKeys: string[];
	/** Filters, sent on every page. */
	query: IDataObject;
}

export interface PagingOptions {
	/** Errors name this node and input item. */
	node: INode;
	itemIndex?: number;
	/** Return at most this many; undefined = Return All. */
	limit?: number;
	/** Page size the user set; undefined = chosen here (see the file comment). */
	pageSize?: number;
	/** Where a refused large page size is remembered: one key per credential (base URL + client id). */
	serviceKey: string;
	/** Stop (incomplete) before requesting more than this many pages; undefined = no budget. */
	maxRequests?: number;
}

export interface PagingResult {
	/** Records handed to `onRecord`. */
	records: number;
	/** Requests made, refused ones included. */
	requests: number;
	/** False when `maxRequests` stopped the listing before its end. */
	complete: boolean;
}

/** Services (credential keys) that refused LARGE_PAGE_SIZE in this process. */
const refusedLargePages = new Set<string>();

export function forgetRefusedPageSizes(): void {
	refusedLargePages.clear();
}

function failureText(error: unknown): { status?: number; text: string } {
	const failure = readHttpFailure(error);
	const said = serviceMessage(failure.body) ?? '';
	return { status: failure.status, text: `${said} ${typeof failure.body === 'string' ? '' : JSON.stringify(failure.body ?? '')}` };
}

/** A 400/422 that names page_size: the service does not take the size asked for. */
function refusesPageSize(error: unknown): boolean {
	const { status, text } = failureText(error);
	return (status === 400 || status === 422) && /page_size/i.test(text);
}

/** A 4xx on a request with a cursor that speaks of the cursor: it expired (its form is not in the contract). */
function cursorExpired(error: unknown): boolean {
	const { status, text } = failureText(error);
	return [400, 404, 410, 422].includes(status ?? 0) && /cursor|expire|\bafter\b/i.test(text);
}

function idOf(record: unknown, idKeys: string[]): unknown {
	if (record === null || typeof record !== 'object') return undefined;
	for (const key of idKeys) {
		const id = (record as IDataObject)[key];
		if (id !== undefined && id !== null && id !== '') return id;
	}
	return undefined;
}

/**
 * Reads `listing` page by page through `fetchPage` (one request with this query; it throws the request's error)
 * and hands each record to `onRecord`. Throws the request's error mapped by errors.ts (NodeApiError) or a
 * NodeOperationError the paginator words itself.
 */
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

	let records = 0;
	let requests = 0;
	// Filled only once a cursor expired: the ids already handed over, so a restarted listing skips them.
	let returnedIds: Set<unknown> | undefined;
	const idsOfLastAttempt: unknown[] = [];
	let restarts = 0;
	let fruitlessRestarts = 0;
	let recordsAtRestart = 0;

	let after: string | undefined;
	let seenCursors = new Set<string>();
	let emptyPagesInARow = 0;
	let page = 0;

	for (;;) {
		if (options.maxRequests !== undefined && requests >= options.maxRequests) return { records, requests, complete: false };
		page++;
		const query: IDataObject = { ...listing.query, page_size: limit === undefined ? pageSize : Math.min(pageSize, limit - records) };
		if (after !== undefined) query.after = after;
		requests++;
		let body: IDataObject | undefined;
		try {
			body = await fetchPage(query);
		} catch (error) {
			if (chooseSize && pageSize > DEFAULT_PAGE_SIZE && refusesPageSize(error)) {
				refusedLargePages.add(serviceKey);
				pageSize = DEFAULT_PAGE_SIZE;
				page--;
				continue;
			}
			if (after === undefined || !cursorExpired(error)) throw toNodeApiError(node, error, { itemIndex });
			// Start again from the first page; what was returned is skipped by id.
			restarts++;
			fruitlessRestarts = records > recordsAtRestart ? 0 : fruitlessRestarts + 1;
			recordsAtRestart = records;
			if (restarts > MAX_RESTARTS || fruitlessRestarts > MAX_FRUITLESS_RESTARTS) {
				throw stop(
					`The service's page cursor kept expiring: ${records} records were read (${restarts - 1} restarts from the first page) before it stopped`,
					'Each restart re-reads the listing from its start and skips records already returned. Try again when the service is less busy, use a larger Page Size, or narrow the listing with a filter.',
				);
			}
			returnedIds ??= new Set();
			for (const id of idsOfLastAttempt) returnedIds.add(id);
			idsOfLastAttempt.length = 0;
			after = undefined;
			seenCursors = new Set();
			emptyPagesInARow = 0;
			page = 0;
			continue;
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
			const id = idOf(record, listing.idKeys);
			if (returnedIds !== undefined) {
				if (id === undefined || id === null) {
					throw stop(
						`The service's page cursor expired and its records have no "${listing.idKeys.join('" or "')}" to skip those already returned`,
						`${records} records had been read. Try again, or use a larger Page Size so the listing needs fewer pages.`,
					);
				}
				if (returnedIds.has(String(id))) continue;
			}
			idsOfLastAttempt.push(String(id));
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

/** `returnAll`, `limit` and Options → Page Size for one list operation. */
export function listFields(show: { resource: string; operation: string }): INodeProperties[] {
	const displayOptions = { show: { resource: [show.resource], operation: [show.operation] } };
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 1 },
			description: 'Max number of results to return',
			displayOptions: { show: { ...displayOptions.show, returnAll: [false] } },
		},
		{
			displayName: 'Options',
			name: 'listOptions',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			displayOptions,
			options: [
				{
					displayName: 'Page Size',
					name: 'pageSize',
					type: 'number',
					default: DEFAULT_PAGE_SIZE,
					typeOptions: { minValue: 1 },
					description:
						'How many records to ask for per request. When not set, Return All asks for 100 per request and falls back to 20 (the size the service recommends) if the service refuses 100; Limit asks for 20. A size set here is always sent as it is.',
					hint: 'Leave unset unless the service asks for a particular size: pages are followed by cursor, so a service that sends fewer per page still returns everything',
				},
			],
		},
	];
}
