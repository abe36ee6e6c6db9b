/**
 * The four list operations, not declarative: RoutingNode's `push(...records)` overflows the call stack above
 * ~120,000 records, so they build their output themselves, one item per record.
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
	url: string;
	collectionKey: string;
	idKeys: string[];
	query?: (context: IExecuteFunctions, itemIndex: number) => IDataObject;
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
	const simplify = context.getNodeParameter('simplify', itemIndex, false) as boolean;
	const output: INodeExecutionData[] = [];
	await readPages(fetchPage, listing, { node: context.getNode(), itemIndex, limit, pageSize, serviceKey }, (record) => {
		const json = isJsonObject(record) ? record : { value: record as IDataObject[keyof IDataObject] };
		output.push({ json: simplify && isJsonObject(record) ? pickFields(json, config.simplifiedFields) : json, pairedItem });
	});
	return output;
}

export function listOperation(config: ListOperationConfig) {
	return async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runPerItem(this, {
			read: () => undefined,
			send: async (context, _input, itemIndex) => await list(context, config, itemIndex),
			oneAtATime: true,
		});
	};
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
