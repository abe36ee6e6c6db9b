import type { IHttpRequestOptions } from 'n8n-workflow';

import { apiPaths } from '../nodes/shared/apiPaths';
import { unqueuedRequest } from '../nodes/shared/transport';
import type { HttpRequest } from './tokenExchange';
import type { TokenCheck } from './sharedAccessToken';

/** A check must not hold up the requests waiting for it for long: no answer by then counts as 'unknown'. */
const CHECK_TIMEOUT_MS = 10_000;

/**
 * Whether the API accepts `token` right now, asked with the cheapest authenticated request of the contract
 * (GET /v1/vendor, read-only). 401: rejected. Any other answer means the token got past authentication (a 403
 * is a valid token of a user without vendor rights); no answer, or a 429/5xx that stayed, is 'unknown'.
 */
export async function checkToken(httpRequest: HttpRequest, baseUrl: string, token: string): Promise<TokenCheck> {
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: `${baseUrl.trim().replace(/\/+$/, '')}${apiPaths.vendor}`,
		headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
		json: true,
	};
	try {
		const response = await unqueuedRequest(httpRequest, options, { timeoutMs: CHECK_TIMEOUT_MS, maxPauseMs: 5_000 });
		const status = Number(response.statusCode);
		if (status === 401) return 'rejected';
		return status === 429 || status >= 500 ? 'unknown' : 'valid';
	} catch {
		// The error holds the request (and its Authorization header): it is dropped, only the verdict is kept.
		return 'unknown';
	}
}
