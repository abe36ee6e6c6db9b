/**
 * The credential's access token, held for one run of a node (one node context; for a polling trigger one poll:
 * `forgetCredentialTarget` drops it), so that each page or write does not make n8n load the credential again.
 *
 * Why: n8n's `httpRequestWithAuthentication` reads the credential from its database, decrypts it and resolves it
 * for EVERY request; in a poll (no input items) n8n 2.x resolves it in a fresh expression isolate each time. Real
 * n8n 2.41.1, 20 ms per request: the Item Trigger's poll of 202 pages took 8.3 s where a fetch loop takes 3.5 s,
 * with 2.8 s of n8n's CPU in credential resolution alone (bench/real-n8n, CPU profile).
 *
 * Held, the token goes out as the credential's own `authenticate` puts it (Bearer header, the token noted for the
 * token cache) through `helpers.httpRequest`: n8n's same HTTP client with the same SSRF checks, proxy, timeout and
 * TLS options (n8n-core: both helpers end in `OutboundHttp.requests().request`). A run's first request goes n8n's
 * own way, `httpRequestWithAuthentication`, and once it has succeeded the stored token is read and held. When the
 * held token cannot serve (none stored, or the service answers 401: it expired, or another process replaced it,
 * one active token per client), that request goes n8n's way (exchange or check, store, retry once) and the token is
 * read again after it succeeds; until then the run's requests go n8n's way, as all did before. So a request is
 * never lost to a held token: at worst it is sent once more. The token lives only in this map, keyed by the context,
 * and is never logged or put in an error (a failure is wrapped as n8n wraps it, NodeApiError, whose text n8n and
 * errors.ts build without headers).
 */
import type { IHttpRequestOptions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { noteStoredToken, withBearerToken } from '../../../credentials/ConsignmentVendorApi.credentials';
import { CREDENTIAL_TYPE } from '../credential';
import { readHttpFailure } from '../httpFailure';
import { cancelSignalOf } from './cancelWatch';
import type { ApiContext } from './index';

/**
 * Per context: the stored token as read after a request that went n8n's way ('' when none is stored), or undefined
 * while that request and read are under way. No entry: the next request goes n8n's way and starts a holding.
 */
interface Holding {
	token?: string;
}

const held = new WeakMap<object, Holding>();

/** The next request of this context goes n8n's way, and the token is read again after it (see `forgetCredentialTarget`). */
export function dropHeldToken(context: ApiContext): void {
	held.delete(context);
}

/**
 * Holds the token stored once `request` (n8n's way, which may store a new one) has succeeded. After a failure the
 * stored token may be the one just refused (another process's replacement still on its way): the context's next
 * request goes n8n's way again, as every request did before, instead of a wave of requests sending a stale token.
 */
function holdAfter(context: ApiContext, request: Promise<unknown>): void {
	const holding: Holding = {};
	held.set(context, holding);
	const letGo = () => {
		if (held.get(context) === holding) held.delete(context);
	};
	const read = async () => {
		try {
			holding.token = noteStoredToken(await context.getCredentials(CREDENTIAL_TYPE));
		} catch {
			// Not readable now: the next request goes n8n's way, which reports what is wrong with the credential.
			letGo();
		}
	};
	void request.then(read, letGo);
}

/**
 * One request with the credential: with the held token when there is one, else (and after a 401) n8n's
 * `httpRequestWithAuthentication`. Resolves and rejects as that helper does (a failure as n8n's NodeApiError).
 */
export async function authenticatedRequest(context: ApiContext, options: IHttpRequestOptions): Promise<unknown> {
	const holding = held.get(context);
	const token = holding?.token;
	if (token !== undefined && token !== '') {
		// As n8n's helper does: the execution's cancellation aborts the request on the wire.
		const signal = cancelSignalOf(context);
		const prepared = withBearerToken({ ...options, ...(signal ? { abortSignal: signal } : {}) }, token);
		const sent = await context.helpers.httpRequest(prepared).then(
			(answer: unknown) => ({ answer }),
			(error: unknown) => ({ error }),
		);
		if (!('error' in sent)) return sent.answer;
		// The service did not process a request it refused to authenticate: n8n's way below sends it again.
		if (readHttpFailure(sent.error).status !== 401) throw new NodeApiError(context.getNode(), sent.error as JsonObject);
	}
	const viaN8n = context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, options);
	// n8n reads the credential as it sends, and after a 401 exchanges (or finds) a token and stores it: the token is
	// read once this request has succeeded. Until then the context's requests go n8n's way, as without a held token.
	// Only the request that found the holding as it was starts a new one (a 401 of one already replaced does not).
	if (held.get(context) === holding && (holding === undefined || holding.token !== undefined)) holdAfter(context, viaN8n);
	return await viaN8n;
}
