/**
 * Two listings are the minimum (no single one shows every item with a status): non-approved, unfiltered, with its
 * `item_status`, and approved (`validation_status=approved`: without it GET /v1/items lists the non-approved ones
 * again; contract, Items rule 1). They are read side by side (issue 38: a poll takes about as long as the longer
 * listing, not both). An item that moves from one to the other while they are read may be seen in both (the newer
 * sighting counts, statusDiff.ts) or in neither (it is kept for one more poll): announced once either way.
 */
import { createHash } from 'node:crypto';

import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { readPageInfo, readPages } from '../shared/pagination';
import { isJsonObject } from '../shared/jsonObject';
import { apiPaths } from '../shared/apiPaths';
import { apiRequest, credentialKey, credentialTarget, type RequestSettings } from '../shared/transport';
import { readBeganOnServiceClock, timeOf } from './serviceClock';
import type { ListedItem } from './statusDiff';

interface StatusListing {
	url: string;
	query: IDataObject;
	/** The record's status, lower-cased (filters are case-insensitive, so the service's case is not a change). */
	statusOf: (record: IDataObject) => string | undefined;
}

const LISTINGS: StatusListing[] = [
	{
		url: apiPaths.nonApprovedItems,
		query: {},
		statusOf: (record) => (typeof record.item_status === 'string' && record.item_status !== '' ? record.item_status.toLowerCase() : undefined),
	},
	{ url: apiPaths.items, query: { validation_status: 'approved' }, statusOf: () => 'approved' },
];

/**
 * The first pages are read while n8n (activation, start-up) or a person (Fetch Test Event) waits: a service that does
 * not answer must not hold them up for the scheduled polls' 15 minutes.
 */
const FIRST_PAGES_PATIENCE: Partial<RequestSettings> = { timeoutMs: 20_000, maxWaitMs: 40_000 };

interface ReadSummary {
	/** Requests both listings made. */
	requests: number;
	/** Records without an item_id or a status: they cannot be told apart or compared, so they are not tracked. */
	untracked: number;
	/** Every page of both listings was read (false: `firstPagesOnly` left pages unread). */
	complete: boolean;
	/**
	 * On the service's clock, at or before the moment the first page was made (serviceClock.ts): a change the read
	 * did not see has an `updated_at` at or after it.
	 */
	began: number;
}

export interface ReadOptions {
	/**
	 * Only the first page of each listing: what the activation and Fetch Test Event read, so that n8n, and a
	 * person, never wait for the whole catalogue. 2 requests (one more per listing if the service refuses the
	 * paginator's 100-item page and serves 20).
	 */
	firstPagesOnly?: boolean;
	/** Through the queue's lane for requests someone waits for (transport `ApiRequest.interactive`). */
	interactive?: boolean;
	/** When aborted, requests still queued leave the queue unsent. */
	signal?: AbortSignal;
	/** Asked before each request: true ends the read with an error (the poll was superseded). */
	stop?: () => boolean;
}

/** What the memory is valid for. */
export async function accountOf(context: IPollFunctions): Promise<string> {
	const { baseUrl, clientId } = await credentialTarget(context);
	return createHash('sha256').update(credentialKey(baseUrl, clientId)).digest('hex').slice(0, 16);
}

export async function readItemStatuses(
	context: IPollFunctions,
	onItem: (item: ListedItem) => void,
	{ firstPagesOnly = false, interactive, signal, stop }: ReadOptions = {},
): Promise<ReadSummary> {
	const api = context;
	const { baseUrl, clientId } = await credentialTarget(api);
	const serviceKey = credentialKey(baseUrl, clientId);
	const n8nStartedAt = Date.now();
	const summary: ReadSummary = { requests: 0, untracked: 0, complete: true, began: Number.POSITIVE_INFINITY };
	/** The first failure of either listing: the other one stops at its next page (no work for a failed poll). */
	let failure: { error: unknown } | undefined;
	const fetchPage = async (url: string, qs: IDataObject): Promise<IDataObject | undefined> => {
		if (stop?.() === true) throw new Error('This poll was superseded by a later activation of the workflow');
		if (failure !== undefined) throw new Error('The other listing could not be read');
		const patience = firstPagesOnly ? FIRST_PAGES_PATIENCE : undefined;
		const response = await apiRequest(api, { method: 'GET', url, qs, signal, interactive }, patience);
		// The earliest of the answers: each listing's first page may be made before the other's first answer arrives.
		summary.began = Math.min(summary.began, readBeganOnServiceClock(response.headers, n8nStartedAt));
		const body = response.body as IDataObject | undefined;
		if (!firstPagesOnly || body === undefined || body === null || typeof body !== 'object') return body;
		if (!readPageInfo(body).hasNextPage) return body;
		// The paginator stops where the service says the listing ends: the rest is left for a scheduled poll.
		summary.complete = false;
		return { ...body, page_info: { ...(body.page_info as IDataObject), has_next_page: false } };
	};
	const readListing = async (listing: StatusListing, index: number) => {
		let position = 0;
		const result = await readPages(
			async (qs) => await fetchPage(listing.url, qs),
			{ collectionKey: 'products', idKeys: ['item_id'], query: listing.query },
			{ node: context.getNode(), serviceKey },
			(record) => {
				const status = isJsonObject(record) ? listing.statusOf(record) : undefined;
				const id = isJsonObject(record) ? record.item_id : undefined;
				if (status === undefined || (typeof id !== 'number' && typeof id !== 'string') || id === '') {
					summary.untracked++;
					return;
				}
				const { created_at: created, updated_at: updated } = record as IDataObject;
				const item = { id: String(id), status, record: record as IDataObject, createdAt: timeOf(created), updatedAt: timeOf(updated) };
				onItem({ ...item, listing: index, position: position++ });
			},
		);
		summary.requests += result.requests;
	};
	// Both read to their end (or stopped) before the poll goes on: one poll of a trigger reads at a time.
	await Promise.all(
		LISTINGS.map(async (listing, index) => {
			try {
				await readListing(listing, index);
			} catch (error) {
				failure ??= { error };
			}
		}),
	);
	if (failure !== undefined) throw failure.error;
	if (!Number.isFinite(summary.began)) summary.began = readBeganOnServiceClock(undefined, n8nStartedAt);
	return summary;
}
