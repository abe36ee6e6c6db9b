/**
 * Routing for declarative operations that send ONE request per input item (Address Create/Update/
 * Delete, Vendor Get/Update, Consignment Get, Order Cancel).
 *
 * Why through the pagination hook: RoutingNode runs `preSend` before and `postReceive` only after a successful
 * request; nothing of ours sees a thrown error, except `routing.operations.pagination` as a function: RoutingNode
 * calls it (when `paginate` is true) with `makeRoutingRequest`, and whatever it throws is what the user sees. So
 * one-request operations get a pagination function that makes exactly one request, through the credential's
 * queue (transport), and maps its error. This works the same in n8n 1.x and 2.x.
 */
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';

import { toNodeApiError, type ApiErrorSubject } from '../../shared/errors';
import { isJsonObject } from '../../shared/jsonObject';
import { routingRequest } from '../../shared/transport';
import { paceSettingsOfItem } from './requestOptions';

/** Resolves what a one-request operation is about (for 404 messages), from the node's parameters. */
export type SubjectResolver = (this: IExecuteSingleFunctions) => ApiErrorSubject | undefined;

/**
 * The output of a one-request operation for input item `itemIndex`: paired with it, and never an item whose json is
 * not an object nor no item at all. RoutingNode makes `{ json: body }` of whatever the body is, and splits an array
 * body into its elements; an answer the contract does not describe (a text body, `[]`) would otherwise reach the
 * next node as a string json, or drop the input item.
 */
function oneRequestOutput(items: INodeExecutionData[], itemIndex: number): INodeExecutionData[] {
	const paired = (json: IDataObject): INodeExecutionData => ({ json, pairedItem: { item: itemIndex } });
	if (items.length === 0) return [paired({})];
	return items.map((item) => ({
		...paired(isJsonObject(item.json) ? item.json : { response: item.json as IDataObject[string] }),
		...(item.binary ? { binary: item.binary } : {}),
	}));
}

/** A `routing.operations.pagination` function that makes exactly one request and maps its error. */
function singleRequestWithActionableErrors(resolveSubject?: SubjectResolver) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		try {
			const response = await routingRequest(this, requestData, paceSettingsOfItem(this));
			return oneRequestOutput(response, itemIndex);
		} catch (error) {
			let subject: ApiErrorSubject | undefined;
			try {
				subject = resolveSubject?.call(this);
			} catch {
				subject = undefined;
			}
			throw toNodeApiError(this.getNode(), error, { itemIndex, subject, method: requestData.options.method ?? 'GET' });
		}
	};
}

/**
 * Routing for an operation that sends one request per input item, with errors mapped by `toNodeApiError`.
 * `paginate: true` only switches on RoutingNode's call of the `pagination` function, which here makes exactly
 * one request (see the file comment for why this is the hook).
 */
export function withActionableErrors(
	routing: INodePropertyRouting,
	options: { subject?: SubjectResolver } = {},
): INodePropertyRouting {
	return {
		...routing,
		send: { ...routing.send, paginate: true },
		operations: { ...routing.operations, pagination: singleRequestWithActionableErrors(options.subject) },
	};
}
