/**
 * Requests made by the item custom operations (Create, Upsert). They run in IExecuteFunctions, outside
 * the declarative RoutingNode, so they call `httpRequestWithAuthentication` themselves: that is what applies
 * the credential's preAuthentication (token exchange) and n8n's refresh-and-retry on a 401.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { apiBaseUrl, CREDENTIAL_TYPE } from '../../shared/credential';
import { idSegment } from '../../shared/requestPaths';
import { sendWithRetry } from '../../shared/retry';

export interface ItemApiResponse {
	statusCode: number;
	body: unknown;
}

/**
 * One API request, retried where that is safe (shared/retry.ts: a 429 always; a 502/503/504 or broken
 * connection only for GET/PATCH, never for the creation POST). Throws n8n's request error on a non-2xx
 * answer (map it with shared/errors.ts).
 */
export async function itemApiRequest(
	context: IExecuteFunctions,
	request: { method: IHttpRequestMethods; url: string; qs?: IDataObject; body?: IDataObject },
): Promise<ItemApiResponse> {
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: await apiBaseUrl(context),
		url: request.url,
		qs: request.qs,
		body: request.body,
		json: true,
		// The status matters: 207 (partial failure) is a 2xx that must not be read as success.
		returnFullResponse: true,
	};
	const response = (await sendWithRetry(
		context,
		request.method,
		async () => await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, options),
	)) as IN8nHttpFullResponse;
	return { statusCode: response.statusCode, body: response.body };
}

export const itemPaths = {
	createInConsignment: (consignmentId: string) => `/v1/consignments/${idSegment(consignmentId)}/items`,
	item: (itemId: string | number) => `/v1/items/${idSegment(itemId)}`,
	items: '/v1/items',
	nonApproved: '/v1/items/non_approved',
};
