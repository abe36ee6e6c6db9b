/** Reading a failed request: what the service answered, whatever shape n8n 1.x or 2.x wrapped it in. */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { asJsonObject } from './jsonObject';

export interface HttpFailure {
	/** Undefined when no response arrived (network error, timeout). */
	status?: number;
	body?: unknown;
	headers: IDataObject;
	/** No query string, no host. */
	path?: string;
	message: string;
	code?: string;
	/** False when nothing says a request was even attempted (e.g. the credential failed before sending). */
	reachedService: boolean;
}

const MAX_SERVICE_TEXT = 500;

/** How Node and axios name a failure without an answer: ECONNRESET, ECONNABORTED, ERR_CANCELED, CERT_HAS_EXPIRED, … */
const ERROR_CODE = /^[A-Z][A-Z0-9_]{2,}$/;

function errorCodeOf(value: unknown): string | undefined {
	return typeof value === 'string' && ERROR_CODE.test(value) ? value : undefined;
}

/** n8n's `messages` keep the wrapped error's own text, before n8n reworded it. */
function originalMessageOf(error: IDataObject): string | undefined {
	const messages = error.messages;
	return Array.isArray(messages) && typeof messages[0] === 'string' && messages[0] !== '' ? messages[0] : undefined;
}

function pathOf(url: unknown): string | undefined {
	if (typeof url !== 'string' || url === '') return undefined;
	try {
		return new URL(url, 'http://placeholder.invalid').pathname;
	} catch {
		return undefined;
	}
}

/**
 * n8n wraps the axios error in a NodeApiError (`cause`), the RoutingNode maybe once more. n8n 1.x's NodeApiError
 * drops it (a `cause` class field resets what `Error` stored), keeping only `httpCode`, its reworded `message` and
 * the original text in `messages`; without an answer, `httpCode` is the axios code (`'ECONNRESET'`…), which says a
 * request was attempted just as the axios error would.
 */
export function readHttpFailure(error: unknown): HttpFailure {
	const seen = new Set<unknown>();
	let current: unknown = error;
	const top = asJsonObject(error) ?? {};
	let code: string | undefined;
	let fromAxios = false;
	while (asJsonObject(current) && !seen.has(current)) {
		seen.add(current);
		const candidate = current as IDataObject;
		if (candidate.isAxiosError === true) fromAxios = true;
		code ??= errorCodeOf(candidate.code);
		const response = asJsonObject(candidate.response);
		if (response && typeof response.status === 'number') {
			const config = asJsonObject(candidate.config) ?? asJsonObject(response.config);
			return {
				status: response.status,
				body: response.data,
				headers: asJsonObject(response.headers) ?? {},
				path: pathOf(config?.url),
				message: String(candidate.message ?? top.message ?? ''),
				reachedService: true,
			};
		}
		if (typeof candidate.statusCode === 'number' && 'body' in candidate) {
			return {
				status: candidate.statusCode,
				body: candidate.body,
				headers: asJsonObject(candidate.headers) ?? {},
				message: String(top.message ?? ''),
				reachedService: true,
			};
		}
		current = candidate.cause ?? candidate.reason;
	}
	// No response object: a network failure (axios error or a system error code), or an error raised before any
	// request was sent (the credential's token exchange, for example), whose own message is the best there is.
	const httpCode = Number(top.httpCode);
	const status = Number.isInteger(httpCode) && httpCode >= 100 ? httpCode : undefined;
	if (status === undefined) code ??= errorCodeOf(top.httpCode);
	return {
		status,
		body: asJsonObject(top.context)?.data,
		headers: {},
		message: String((code === undefined ? undefined : originalMessageOf(top)) ?? top.message ?? error ?? ''),
		code,
		reachedService: fromAxios || code !== undefined,
	};
}

/**
 * Not by `instanceof` alone: a community package may resolve its own copy of n8n-workflow (a peer install in
 * ~/.n8n/nodes), and then it fails for every error n8n throws. Name and `httpCode` are the same in 1.x and 2.x.
 */
export function isNodeApiError(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError || (error instanceof Error && error.name === 'NodeApiError' && 'httpCode' in error);
}

/** True for errors of n8n's request helpers: a NodeApiError, an axios error, or a full HTTP response. */
export function isRequestError(error: unknown): boolean {
	if (isNodeApiError(error)) return true;
	const object = asJsonObject(error);
	if (!object) return false;
	if (object.isAxiosError === true || asJsonObject(object.response) !== undefined) return true;
	return typeof object.statusCode === 'number' && 'body' in object;
}

export function redactSecrets(text: string): string {
	return text
		.replace(/(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi, '$1[redacted]')
		.replace(/("?(?:client_secret|access_token|bearer_token|clientSecret|accessToken)"?\s*[:=]\s*)("[^"]*"|[^\s,&}]+)/gi, '$1[redacted]');
}

/** The service's own error text: `{error: string}`, `{message}`, `{error: [{message, vendor_sku}]}`, or plain text. */
export function serviceMessage(body: unknown): string | undefined {
	let text: string | undefined;
	if (typeof body === 'string') {
		text = body.trim() || undefined;
	} else if (Array.isArray(body)) {
		const parts = body.map((entry) => serviceMessage(entry)).filter((part): part is string => !!part);
		text = parts.length ? parts.join('; ') : undefined;
	} else {
		const object = asJsonObject(body);
		if (object) {
			for (const key of ['error', 'message', 'errors', 'detail']) {
				const value = object[key];
				if (typeof value === 'string' && value.trim()) {
					text = value.trim();
					break;
				}
				if (Array.isArray(value)) {
					text = value
						.map((entry) => {
							const entryObject = asJsonObject(entry);
							if (!entryObject) return typeof entry === 'string' ? entry : JSON.stringify(entry);
							const sku = entryObject.vendor_sku ? `${String(entryObject.vendor_sku)}: ` : '';
							return `${sku}${String(entryObject.message ?? JSON.stringify(entryObject))}`;
						})
						.join('; ');
					if (text) break;
				}
				if (asJsonObject(value)) {
					text = serviceMessage(value);
					if (text) break;
				}
			}
		}
	}
	if (text === undefined) return undefined;
	const clean = redactSecrets(text);
	return clean.length > MAX_SERVICE_TEXT ? `${clean.slice(0, MAX_SERVICE_TEXT)}…` : clean;
}
