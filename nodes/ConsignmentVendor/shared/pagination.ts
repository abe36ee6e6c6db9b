/**
 * One cursor paginator for every list operation (items, non-approved items, addresses, consignments).
 *
 * Exported API:
 * - `listOperationRouting({ url, collectionKey })`: the `routing` of a list operation's option. It sends
 *   `GET url`, switches on pagination, and plugs in `cursorPaginator(collectionKey)`. Filters are ordinary
 *   fields with `routing.send: { type: 'query', property }`; they are kept on every page.
 * - `listFields({ resource, operation })`: the `returnAll` (boolean), `limit` (number, default 50, shown when
 *   not returnAll) and `listOptions.pageSize` ("Page Size", default 20) fields of one list operation.
 * - `cursorPaginator(collectionKey)`: the `routing.operations.pagination` function itself
 *   (`this: IExecutePaginationFunctions`), exported for tests.
 * - `readPageInfo(body)`: `{ hasNextPage, endCursor }` of a collection response (also used by listSearch.ts).
 * - `DEFAULT_PAGE_SIZE` (20).
 *
 * Behaviour (contract: docs/vendor-api.md, "Pagination rules"):
 * - first page with `page_size` only (no `after`); then `after = page_info.end_cursor` while
 *   `page_info.has_next_page` is true; every query parameter of the operation is sent on every page;
 * - Return All returns every record of every page once, in order; Limit N returns the first N (or all there
 *   are), asks for `min(pageSize, N - collected)` per page and makes no request once it has N;
 * - never assumes `page_size` was honoured: a short page with `has_next_page` is followed, a page longer than
 *   asked is cut at the limit;
 * - a cursor the service already gave, `has_next_page` without an `end_cursor`, or a run of empty pages that
 *   claim more stop with a NodeOperationError instead of looping;
 * - one n8n item per record, the record exactly as returned, `pairedItem` = the input item;
 * - a page that fails with a 429 (or a 502/503/504, a broken connection) is requested again, unchanged, by the
 *   transport's queue: the records gathered so far are kept, and nothing is returned twice.
 *
 * Page size: the contract leaves the maximum undocumented and names 20 as the recommended size (and the
 * consignments default); 20 is the largest size known to be accepted, so it is the default. Users can raise it
 * in Options → Page Size; a service that caps it lower still works, because pages are followed by cursor.
 */
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyRouting,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeApiError } from '../../shared/errors';
import { isJsonObject } from '../../shared/jsonObject';
import { routingRequest } from '../../shared/transport';
import { paceSettingsOfItem } from './requestOptions';

export const DEFAULT_PAGE_SIZE = 20;

/** Consecutive empty pages that still claim `has_next_page` before the paginator gives up. */
const MAX_EMPTY_PAGES_IN_A_ROW = 5;

export interface ListOperationConfig {
	/** Path of the collection endpoint, e.g. `/v1/consignments`. */
	url: string;
	/** Top-level key of the records in the response: `products`, `consignments` or `addresses`. */
	collectionKey: string;
}

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

function toItem(record: unknown, itemIndex: number): INodeExecutionData {
	const json = isJsonObject(record) ? record : { value: record as IDataObject[keyof IDataObject] };
	return { json, pairedItem: { item: itemIndex } };
}

function readSettings(context: IExecutePaginationFunctions): { limit?: number; pageSize: number } {
	const returnAll = context.getNodeParameter('returnAll', false) as boolean;
	const rawPageSize = Number(context.getNodeParameter('listOptions.pageSize', DEFAULT_PAGE_SIZE));
	const pageSize = Number.isInteger(rawPageSize) && rawPageSize > 0 ? rawPageSize : DEFAULT_PAGE_SIZE;
	if (returnAll) return { pageSize };
	const limit = Number(context.getNodeParameter('limit', 50));
	if (!Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(context.getNode(), `Limit must be a whole number of at least 1, got ${String(limit)}`, {
			itemIndex: context.getItemIndex(),
		});
	}
	return { limit, pageSize };
}

/** The `routing.operations.pagination` function for a collection whose records are under `collectionKey`. */
export function cursorPaginator(collectionKey: string) {
	return async function paginateByCursor(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const node = this.getNode();
		const itemIndex = this.getItemIndex();
		const { limit, pageSize } = readSettings(this);
		const pace = paceSettingsOfItem(this);
		const baseQuery: IDataObject = { ...(requestData.options.qs ?? {}) };
		// Cursors come only from the previous page; the first page is `page_size` alone.
		delete baseQuery.after;
		delete baseQuery.before;

		const results: INodeExecutionData[] = [];
		const seenCursors = new Set<string>();
		let after: string | undefined;
		let emptyPagesInARow = 0;
		let page = 0;

		for (;;) {
			page++;
			const remaining = limit === undefined ? pageSize : Math.min(pageSize, limit - results.length);
			const qs: IDataObject = { ...baseQuery, page_size: remaining };
			if (after !== undefined) qs.after = after;

			// Built once: a repeated page (the transport, e.g. after a 429) is the same request, cursor and filters.
			const pageRequest = { ...requestData, options: { ...requestData.options, qs } };
			let response: INodeExecutionData[];
			try {
				response = await routingRequest(this, pageRequest, pace);
			} catch (error) {
				throw toNodeApiError(node, error, { itemIndex });
			}

			const body = response[0]?.json;
			const records = body?.[collectionKey];
			if (!Array.isArray(records)) {
				throw new NodeOperationError(
					node,
					`The service's answer has no "${collectionKey}" list (page ${page})`,
					{ itemIndex, description: 'The response did not have the documented shape; nothing was returned.' },
				);
			}
			const wanted = limit === undefined ? records : records.slice(0, limit - results.length);
			results.push(...wanted.map((record) => toItem(record, itemIndex)));
			if (limit !== undefined && results.length >= limit) break;

			const { hasNextPage, endCursor } = readPageInfo(body as IDataObject);
			if (!hasNextPage) break;
			if (endCursor === undefined) {
				throw new NodeOperationError(
					node,
					`The service said there is another page after page ${page} but gave no cursor to fetch it (page_info.end_cursor is missing)`,
					{ itemIndex, description: 'Stopped instead of guessing, to avoid returning records twice or looping.' },
				);
			}
			if (seenCursors.has(endCursor)) {
				throw new NodeOperationError(
					node,
					`The service returned the same page cursor twice (page ${page}); stopped to avoid an endless loop`,
					{ itemIndex, description: `${results.length} records had been read. Try again later; if it persists, report it to the service.` },
				);
			}
			emptyPagesInARow = records.length === 0 ? emptyPagesInARow + 1 : 0;
			if (emptyPagesInARow >= MAX_EMPTY_PAGES_IN_A_ROW) {
				throw new NodeOperationError(
					node,
					`The service returned ${emptyPagesInARow} empty pages in a row while saying more follow; stopped to avoid an endless loop`,
					{ itemIndex },
				);
			}
			seenCursors.add(endCursor);
			after = endCursor;
		}
		return results;
	};
}

/** Routing of a list operation: `GET url`, paginated by cursor. */
export function listOperationRouting(config: ListOperationConfig): INodePropertyRouting {
	return {
		request: { method: 'GET', url: config.url },
		// RoutingNode calls the pagination function only when `paginate` is true; the function itself reads
		// Return All / Limit, so it is on for both.
		send: { paginate: true },
		operations: { pagination: cursorPaginator(config.collectionKey) },
	};
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
						'How many records to ask for per request. 20 is the size the service recommends and is known to accept; its maximum is not documented. Pages are followed by cursor, so a service that sends fewer per page still returns everything.',
				},
			],
		},
	];
}
