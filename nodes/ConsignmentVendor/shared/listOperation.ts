/**
 * The four list operations (Item → Get Many / Get Many Non-Approved, Address → Get Many, Consignment → Get Many)
 * as custom operations: n8n's RoutingNode appends a paginator's records with `push(...records)`, which overflows
 * the call stack above ~120,000 records, so these operations build their output themselves, one item per record,
 * reading pages with the shared paginator (pagination.ts) through the transport's `apiRequest`.
 *
 * Per input item, one n8n item per record
 * (the record exactly as returned, or only its chosen fields with Simplify on; `pairedItem` = that input item);
 * a failure stops the node with an error naming the item, or with "Continue on Fail" gives that input item one error
 * item (shared/itemRunner.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isJsonObject } from '../../shared/jsonObject';
import { apiRequest, credentialKey, credentialTarget } from '../../shared/transport';
import { runPerItem } from './itemRunner';
import { readPages, type Listing } from './pagination';
import { paceSettingsOfNode } from './requestOptions';
import { pickFields } from './simplify';

interface ListOperationConfig {
	/** Path of the collection endpoint, e.g. `/v1/consignments`. */
	url: string;
	collectionKey: string;
	/** Fields that identify a record (see Listing.idKeys). */
	idKeys: string[];
	/** The listing's filters for one input item (empty values are left out by the caller of `query`). */
	query?: (context: IExecuteFunctions, itemIndex: number) => IDataObject;
	/** The fields a record keeps when the node's Simplify is on (shared/simplify.ts). */
	simplifiedFields: readonly string[];
}

function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (context.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = Number(context.getNodeParameter('limit', itemIndex, 50));
	if (!Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(context.getNode(), `Limit must be a whole number of at least 1, got ${String(limit)}`, { itemIndex });
	}
	return limit;
}

/** The Page Size the user set, or undefined when it was not added (then the paginator chooses). */
function readPageSize(context: IExecuteFunctions, itemIndex: number): number | undefined {
	const options = context.getNodeParameter('listOptions', itemIndex, {}) as IDataObject;
	if (options.pageSize === undefined || options.pageSize === null || options.pageSize === '') return undefined;
	const pageSize = Number(options.pageSize);
	if (!Number.isInteger(pageSize) || pageSize < 1) {
		throw new NodeOperationError(context.getNode(), `Page Size must be a whole number of at least 1, got ${String(options.pageSize)}`, { itemIndex });
	}
	return pageSize;
}

/** Key under which the paginator remembers what page size this credential's service refused. */
export async function serviceKeyOf(context: IExecuteFunctions): Promise<string> {
	const { baseUrl, clientId } = await credentialTarget(context);
	return credentialKey(baseUrl, clientId);
}

/** Every record of one input item's listing, one output item per record. */
async function list(context: IExecuteFunctions, config: ListOperationConfig, itemIndex: number): Promise<INodeExecutionData[]> {
	const listing: Listing = {
		collectionKey: config.collectionKey,
		idKeys: config.idKeys,
		query: config.query?.(context, itemIndex) ?? {},
	};
	const limit = readLimit(context, itemIndex);
	const pageSize = readPageSize(context, itemIndex);
	const pace = paceSettingsOfNode(context);
	const serviceKey = await serviceKeyOf(context);
	const fetchPage = async (qs: IDataObject) =>
		(await apiRequest(context, { method: 'GET', url: config.url, qs }, pace)).body as IDataObject | undefined;
	// One pairedItem object for every record of this input item (n8n only reads it), to keep large listings small.
	const pairedItem = { item: itemIndex };
	// Off by default on version 1 nodes, on from 1.1 (shared/simplify.ts); off gives the record as returned.
	const simplify = context.getNodeParameter('simplify', itemIndex, false) as boolean;
	const output: INodeExecutionData[] = [];
	await readPages(fetchPage, listing, { node: context.getNode(), itemIndex, limit, pageSize, serviceKey }, (record) => {
		const json = isJsonObject(record) ? record : { value: record as IDataObject[keyof IDataObject] };
		output.push({ json: simplify && isJsonObject(record) ? pickFields(json, config.simplifiedFields) : json, pairedItem });
	});
	return output;
}

/** The `execute` of a list operation: input items one at a time, each item's listing in order. */
export function listOperation(config: ListOperationConfig) {
	return async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runPerItem(this, {
			read: () => undefined,
			send: async (context, _input, itemIndex) => await list(context, config, itemIndex),
			oneAtATime: true,
		});
	};
}

/** Query of the listing from node parameters: `[parameter name, query name]` pairs; empty values are left out. */
export function queryFromParameters(pairs: Array<[string, string]>) {
	return (context: IExecuteFunctions, itemIndex: number): IDataObject => {
		const query: IDataObject = {};
		for (const [parameter, name] of pairs) {
			const value = context.getNodeParameter(parameter, itemIndex, '') as unknown;
			if (value === undefined || value === null) continue;
			const text = typeof value === 'string' ? value.trim() : value;
			if (text !== '') query[name] = text as IDataObject[string];
		}
		return query;
	};
}
