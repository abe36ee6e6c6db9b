/**
 * postReceive helpers that shape what a one-request operation outputs: the service's record, one n8n item per
 * input item.
 *
 * Exported API:
 * - `unwrapRecord(key)`: outputs `body[key]` when it is an object (e.g. `{consignment: {...}}` -> the consignment),
 *   otherwise the body unchanged.
 * - `summaryWhenEmpty(summary)`: outputs the body unchanged, unless the service answered with nothing
 *   (no body, `''` or `{}`); then outputs `summary.call(this)` (e.g. `{ success: true, address_id }`), so the
 *   user gets one item that says what happened instead of an empty one.
 */
import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
} from 'n8n-workflow';

import { isJsonObject } from '../../shared/jsonObject';

export function isEmptyBody(body: unknown): boolean {
	if (body === undefined || body === null) return true;
	if (typeof body === 'string') return body.trim() === '';
	return isJsonObject(body) && Object.keys(body).length === 0;
}

export function unwrapRecord(key: string): PostReceiveAction {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const body = response.body as unknown;
		if (isJsonObject(body) && isJsonObject(body[key])) return [{ json: body[key] as IDataObject }];
		return items;
	};
}

export function summaryWhenEmpty(summary: (this: IExecuteSingleFunctions) => IDataObject): PostReceiveAction {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		if (isEmptyBody(response.body)) return [{ json: summary.call(this) }];
		return items;
	};
}
