// Stand-ins for what n8n hands the node's shared code, for unit tests that run it without n8n: the node, the
// errors n8n's request helpers throw, and the `this` of a pagination function.
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export const FAKE_NODE: INode = {
	id: 'n1',
	name: 'Consignment Vendor',
	type: 'consignmentVendor',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** The access token in every fake request's Authorization header: no mapped error may carry it. */
export const LEAK_CANARY = 'tok-abc.DEF_123-canary';

/**
 * The shape n8n's request helpers throw for an answer with an error status: a NodeApiError wrapping an axios
 * error, whose config holds the request's Authorization header as n8n's does.
 */
export function n8nRequestError(
	status: number,
	data: unknown,
	headers: Record<string, string> = {},
	url = 'http://127.0.0.1:9/v1/items/5',
): NodeApiError {
	const config = { url, headers: { Authorization: `Bearer ${LEAK_CANARY}` } };
	const axiosError = Object.assign(new Error(`Request failed with status code ${status}`), {
		isAxiosError: true,
		config,
		response: { status, data, headers, config },
	});
	return new NodeApiError(FAKE_NODE, axiosError as never);
}

/**
 * The same answer as n8n 1.x's request helpers throw it: its NodeApiError keeps httpCode and the body
 * (context.data) but not the request error it wraps (a `cause` class field resets what `Error` stored), so the
 * response headers, Retry-After included, are gone.
 */
export function n8n1RequestError(status: number, data: unknown, headers: Record<string, string> = {}): NodeApiError {
	const error = n8nRequestError(status, data, headers);
	Object.defineProperty(error, 'cause', { value: undefined, writable: true, enumerable: true, configurable: true });
	return error;
}

/** What n8n's request helpers throw when the connection breaks or is refused (no response). */
export function connectionError(code: string, message: string): NodeApiError {
	return new NodeApiError(FAKE_NODE, Object.assign(new Error(message), { isAxiosError: true, code }) as never);
}

/**
 * What n8n 1.x's request helpers throw when no answer arrived (a reset connection, a timeout, a refused
 * connection): `new NodeApiError(node, axiosError)` whose `cause` class field dropped the axios error, so only
 * `httpCode` (the axios code as a string, e.g. 'ECONNABORTED' for a timeout), n8n's reworded message and the
 * original text in `messages` are left. errors.test.ts checks it against what n8n-workflow 1.120 builds.
 */
export function n8n1ConnectionError(code: string, message: string): NodeApiError {
	const error = connectionError(code, message);
	Object.defineProperty(error, 'cause', { value: undefined, writable: true, enumerable: true, configurable: true });
	return error;
}

export const FAKE_BASE_URL = 'http://127.0.0.1:9';
/** Every fake context has a credential of its own, so no test shares (or waits in) another test's queue. */
let fakeClients = 0;

/**
 * `this` of a `routing.operations.pagination` function. Node parameters are read from `parameters` by their
 * dotted name (e.g. `listOptions.pageSize`); each page request goes to `makeRoutingRequest`.
 */
export function paginationContext(options: {
	parameters: IDataObject;
	itemIndex?: number;
	makeRoutingRequest: (request: DeclarativeRestApiSettings.ResultOptions) => Promise<INodeExecutionData[]>;
}): IExecutePaginationFunctions {
	return {
		getNode: () => FAKE_NODE,
		getItemIndex: () => options.itemIndex ?? 0,
		getNodeParameter: (name: string, fallback?: unknown) => {
			const value = name.split('.').reduce<unknown>((at, key) => (at as IDataObject | undefined)?.[key], options.parameters);
			return value === undefined ? fallback : value;
		},
		getCredentials: async () => ({ baseUrl: FAKE_BASE_URL, clientId: `fake-client-${++fakeClients}` }),
		makeRoutingRequest: options.makeRoutingRequest,
	} as unknown as IExecutePaginationFunctions;
}
