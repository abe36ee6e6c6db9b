/**
 * Reads every item of the vendor with its validation status, in the fewest requests the contract allows:
 * - GET /v1/items/non_approved, unfiltered: every non-approved item (reconciliation, pending, rejected, deleted,
 *   and whatever else the service lists there) with its `item_status`;
 * - GET /v1/items?validation_status=approved: the approved items (this listing has no status field; the filter
 *   says it). Without the filter it would list the non-approved ones again (contract, Items rule 1).
 * Two listings are the minimum (no single listing shows both with a status), each read with the shared paginator
 * at the largest page size the service takes: ceil(non-approved / 100) + ceil(approved / 100) requests, at least
 * one per listing (docs/item-trigger.md). The non-approved listing goes first: an item approved while the two
 * are read is then seen in the approved listing too, and the later sighting wins (statusDiff.ts).
 */
import { createHash } from 'node:crypto';

import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { readPages } from '../ConsignmentVendor/shared/pagination';
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

/** The credential's account (Base URL + client ID) as a short hash: what the memory is valid for. */
export async function accountOf(context: IPollFunctions): Promise<string> {
	const { baseUrl, clientId } = await credentialTarget(context);
	return createHash('sha256').update(credentialKey(baseUrl, clientId)).digest('hex').slice(0, 16);
}

/** Hands every listed item to `onItem`, page by page; throws the first request error (as the paginator maps it). */
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
