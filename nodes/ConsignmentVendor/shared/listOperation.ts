/**
 * The list operations (every resource's Get Many), not declarative: RoutingNode's `push(...records)` overflows the call stack above
 * ~120,000 records, so they build their output themselves, one item per record, or one file (listFile/).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isJsonObject } from '../../shared/jsonObject';
import { credentialKey, credentialTarget } from '../../shared/transport';
import { runPerItem } from './itemRunner';
import { exportToFile } from './listFile/exportToFile';
import { outputsFile } from './listFile/fileFields';
import { pageRequests, readPages, type Listing } from '../../shared/pagination';
import { pickFields } from './simplify';

export interface ListOperationConfig {
	url: string;
	collectionKey: string;
	idKeys: string[];
	query?: (context: IExecuteFunctions, itemIndex: number) => IDataObject;
	simplifiedFields: readonly string[];
	/** Fields holding prices, written in cents in a file (item listings). */
	priceFields?: readonly string[];
	/** Whether those prices are `{currency_code, price}` objects (the non-approved listing). */
	priceObjects?: boolean;
}

/** `/v1/items/non_approved` -> `items-non_approved`: the file's name when the user gave none. */
export function listingName(url: string): string {
	return url.replace(/^\/?v\d+\//, '').split('/').filter(Boolean).join('-');
}

function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (context.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = Number(context.getNodeParameter('limit', itemIndex, 50));
	if (!Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(context.getNode(), `Limit must be a whole number of at least 1, got ${String(limit)}`, { itemIndex });
	}
	return limit;
}

/** Undefined when not added: the paginator chooses. */
function readPageSize(context: IExecuteFunctions, itemIndex: number): number | undefined {
	const options = context.getNodeParameter('listOptions', itemIndex, {}) as IDataObject;
	if (options.pageSize === undefined || options.pageSize === null || options.pageSize === '') return undefined;
	const pageSize = Number(options.pageSize);
	if (!Number.isInteger(pageSize) || pageSize < 1) {
		throw new NodeOperationError(context.getNode(), `Page Size must be a whole number of at least 1, got ${String(options.pageSize)}`, { itemIndex });
	}
	return pageSize;
}

export async function serviceKeyOf(context: IExecuteFunctions): Promise<string> {
	const { baseUrl, clientId } = await credentialTarget(context);
	return credentialKey(baseUrl, clientId);
}

async function list(context: IExecuteFunctions, config: ListOperationConfig, itemIndex: number, stop: AbortSignal): Promise<INodeExecutionData[]> {
	const listing: Listing = {
		collectionKey: config.collectionKey,
		idKeys: config.idKeys,
		query: config.query?.(context, itemIndex) ?? {},
	};
	const limit = readLimit(context, itemIndex);
	const pageSize = readPageSize(context, itemIndex);
	const serviceKey = await serviceKeyOf(context);
	const paging = { node: context.getNode(), itemIndex, limit, pageSize, serviceKey };
	// With the runner's stop: once the node fails, a page still waiting in the queue leaves it.
	const fetchPage = pageRequests(context, config.url, stop);
	const simplify = context.getNodeParameter('simplify', itemIndex, false) as boolean;
	const recordOf = (record: unknown): IDataObject => {
		const json = isJsonObject(record) ? record : { value: record as IDataObject[keyof IDataObject] };
		return simplify && isJsonObject(record) ? pickFields(json, config.simplifiedFields) : json;
	};
	if (outputsFile(context, itemIndex)) {
		return await exportToFile(context, {
			fetchPage,
			listing,
			paging,
			recordOf,
			columns: simplify ? config.simplifiedFields : undefined,
			priceFields: config.priceFields ?? [],
			priceCurrency: config.priceObjects ?? false,
			defaultName: listingName(config.url),
		});
	}
	// One pairedItem object for every record of this input item (n8n only reads it), to keep large listings small.
	const pairedItem = { item: itemIndex };
	const output: INodeExecutionData[] = [];
	await readPages(fetchPage, listing, paging, (record) => {
		output.push({ json: recordOf(record), pairedItem });
	});
	return output;
}

/**
 * Every list operation's executor and its listing: the registry's own mark of which operations are listings, so
 * the tests and docs that enumerate list operations read it instead of keeping a list by hand.
 */
const LISTINGS = new WeakMap<object, Readonly<ListOperationConfig>>();

/** The listing an operation's `execute` reads, or undefined when the operation is not a list operation. */
export function listingOf(execute: object | undefined): Readonly<ListOperationConfig> | undefined {
	return execute === undefined ? undefined : LISTINGS.get(execute);
}

export function listOperation(config: ListOperationConfig) {
	async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runPerItem(this, {
			read: () => undefined,
			send: async (context, _input, itemIndex, stop) => await list(context, config, itemIndex, stop),
			oneAtATime: true,
		});
	}
	LISTINGS.set(execute, config);
	return execute;
}

/** `[parameter name, query name]` pairs; empty values are left out. */
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
