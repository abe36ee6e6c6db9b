/**
 * Two listings are the minimum (no single one shows every item with a status): non-approved, unfiltered, with its
 * `item_status`, then approved (`validation_status=approved`: without it GET /v1/items lists the non-approved ones
 * again; contract, Items rule 1). Non-approved first: an item approved meanwhile is seen again later, and the later
 * sighting wins (statusDiff.ts).
 */
import { createHash } from 'node:crypto';

import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { readPages } from '../shared/pagination';
import { isJsonObject } from '../shared/jsonObject';
import { apiPaths } from '../shared/apiPaths';
import { apiRequest, credentialKey, credentialTarget } from '../shared/transport';
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

interface ReadSummary {
	/** Requests both listings made. */
	requests: number;
	/** Records without an item_id or a status: they cannot be told apart or compared, so they are not tracked. */
	untracked: number;
}

/** What the memory is valid for. */
export async function accountOf(context: IPollFunctions): Promise<string> {
	const { baseUrl, clientId } = await credentialTarget(context);
	return createHash('sha256').update(credentialKey(baseUrl, clientId)).digest('hex').slice(0, 16);
}

export async function readItemStatuses(context: IPollFunctions, onItem: (item: ListedItem) => void): Promise<ReadSummary> {
	const api = context;
	const { baseUrl, clientId } = await credentialTarget(api);
	const serviceKey = credentialKey(baseUrl, clientId);
	const summary: ReadSummary = { requests: 0, untracked: 0 };
	for (const listing of LISTINGS) {
		const result = await readPages(
			async (qs) => (await apiRequest(api, { method: 'GET', url: listing.url, qs })).body as IDataObject | undefined,
			{ collectionKey: 'products', idKeys: ['item_id'], query: listing.query },
			{ node: context.getNode(), serviceKey },
			(record) => {
				const status = isJsonObject(record) ? listing.statusOf(record) : undefined;
				const id = isJsonObject(record) ? record.item_id : undefined;
				if (status === undefined || (typeof id !== 'number' && typeof id !== 'string') || id === '') {
					summary.untracked++;
					return;
				}
				onItem({ id: String(id), status, record: record as IDataObject });
			},
		);
		summary.requests += result.requests;
	}
	return summary;
}
