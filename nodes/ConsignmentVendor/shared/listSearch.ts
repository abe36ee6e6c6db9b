/**
 * The API has no search parameter, so the filter is applied here. Each call reads pages until it has a screenful of
 * matches or the listing ends, so a rarely matching filter does not cost one request per scroll.
 */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { apiPaths } from '../../shared/apiPaths';
import { toNodeApiError } from '../../shared/errors';
import { apiRequest } from '../../shared/transport';
import { DEFAULT_PAGE_SIZE, readPageInfo } from '../../shared/pagination';

export const CONSIGNMENT_SEARCH = 'searchConsignments';
export const ACTIVE_ADDRESS_SEARCH = 'searchActiveAddresses';

/** Pages one call may read while looking for matches of a filter. */
const MAX_PAGES_PER_CALL = 10;

interface Listing {
	url: string;
	collectionKey: string;
	keep: (record: IDataObject) => boolean;
	toResult: (record: IDataObject) => INodeListSearchItems;
}

interface ListingPage {
	records: IDataObject[];
	nextCursor?: string;
}

async function readPage(context: ILoadOptionsFunctions, listing: Listing, after: string | undefined): Promise<ListingPage> {
	const qs: IDataObject = { page_size: DEFAULT_PAGE_SIZE };
	if (after) qs.after = after;
	let body: IDataObject;
	try {
		body = (await apiRequest(context, { method: 'GET', url: listing.url, qs })).body as IDataObject;
	} catch (error) {
		throw toNodeApiError(context.getNode(), error);
	}
	const records = Array.isArray(body?.[listing.collectionKey]) ? (body[listing.collectionKey] as IDataObject[]) : [];
	const { hasNextPage, endCursor } = readPageInfo(body ?? {});
	// A repeated cursor ends the list instead of offering the same page again.
	return { records, nextCursor: hasNextPage && endCursor !== after ? endCursor : undefined };
}

function listSearchMethod(listing: Listing) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		const needle = filter?.trim().toLowerCase() ?? '';
		const results: INodeListSearchItems[] = [];
		let cursor = paginationToken || undefined;
		for (let pages = 0; pages < MAX_PAGES_PER_CALL; pages++) {
			const page = await readPage(this, listing, cursor);
			for (const record of page.records.filter(listing.keep)) {
				const result = listing.toResult(record);
				if (!needle || `${result.name} ${String(result.value)}`.toLowerCase().includes(needle)) results.push(result);
			}
			cursor = page.nextCursor;
			if (!cursor || results.length >= DEFAULT_PAGE_SIZE) break;
		}
		return { results, paginationToken: cursor };
	};
}

function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value).trim();
}

export const searchConsignments = listSearchMethod({
	url: apiPaths.consignments,
	collectionKey: 'consignments',
	keep: (record) => text(record.id) !== '',
	toResult: (record) => {
		const details = [
			text(record.status),
			record.consignment_items_count === undefined ? '' : `${text(record.consignment_items_count)} items`,
			text(record.created_at).slice(0, 10),
		].filter(Boolean);
		return {
			name: details.length ? `${text(record.id)} (${details.join(', ')})` : text(record.id),
			value: text(record.id),
		};
	},
});

export const searchActiveAddresses = listSearchMethod({
	url: apiPaths.addresses,
	collectionKey: 'addresses',
	// Inactive (deleted) addresses can neither be updated nor linked to items. A record without the
	// field is offered: the listing's shape is not documented.
	keep: (record) => record.active !== false && text(record.address_id ?? record.id) !== '',
	toResult: (record) => {
		const name = text(record.name) || [text(record.first_name), text(record.last_name)].filter(Boolean).join(' ');
		const place = [text(record.address1), text(record.city), text(record.state_abbr), text(record.zipcode)]
			.filter(Boolean)
			.join(', ');
		const id = text(record.address_id ?? record.id);
		return { name: [name, place].filter(Boolean).join(' — ') || id, value: id };
	},
});

export const listSearch = {
	[CONSIGNMENT_SEARCH]: searchConsignments,
	[ACTIVE_ADDRESS_SEARCH]: searchActiveAddresses,
};
