/**
 * Which failed requests are worth sending again, and how long to wait: the rules, pure. The scheduler
 * (scheduler.ts) applies them; errors.ts reads them to word its messages.
 *
 * - 429, for any method: the service says it did not process the request. The scheduler pauses the whole
 *   credential's queue instead of retrying the one request (see scheduler.ts); it is never a "failed attempt".
 *   Only a 429 is a rate limit: the queue learns its pace from 429s alone (adaptiveRate.ts).
 * - 503 with Retry-After, for any method: the service says it is unavailable and when to come back.
 * - Any 5xx and any failed connection (broken, timed out, refused) is an outage signal (`isOutageSignal`): the
 *   queue holds and probes (outage.ts) whatever this file says about repeating the request itself.
 * - For idempotent requests only (GET, PATCH, DELETE, …), also 502/503/504 and a connection that broke or
 *   timed out (ECONNRESET, "socket hang up", ETIMEDOUT, …): sending them again cannot do anything twice.
 *   (PATCH bodies here are absolute values, not increments.)
 * - Never for a POST (item creation, address creation, cancellation) on any other 5xx, a broken connection or a
 *   timeout: the service may have carried it out, and repeating could create 500 items twice. Such a failure is
 *   reported as "outcome unknown" instead (mayHaveBeenProcessed).
 * - 401, for any method, at most `AUTH_RESEND.maxResends` more times: n8n's own helper already exchanged or
 *   checked a token and repeated the request once, but in queue mode another n8n process may have replaced that
 *   token in between (a service with one active token per client revokes the others). The service did not
 *   process a request it refused to authenticate, and sending it again makes n8n read the credential, with the
 *   other process's token, from its database. Likewise the token cache's `TokenReplacedError`
 *   (credentials/sharedAccessToken.ts, marked `resendWithStoredToken`).
 * - Never other 4xx, 500, or refused/unresolvable connections (a wrong Base URL does not heal in a second).
 *
 * n8n 1.x never shows a node the headers of a failed response (its NodeApiError drops the wrapped request
 * error), so there every 429 is one without a readable Retry-After and the scheduler backs off by itself.
 */
import type { IDataObject } from 'n8n-workflow';

import type { HttpFailure } from '../httpFailure';

/** Retries of transient failures (5xx, broken connections), which, unlike 429s, count as failed attempts. */
export const TRANSIENT_RETRY = {
	/** Tries in all, the first one included. */
	maxAttempts: 4,
	/** Wait after the first failed try; doubles with every further one (plus up to 25 % jitter). */
	baseDelayMs: 250,
	maxBackoffMs: 8_000,
} as const;

/** The queue's pause after a 429 without a readable Retry-After: 1 s, doubling while no request succeeds. */
export const RATE_LIMIT_BACKOFF = { baseDelayMs: 1_000, maxBackoffMs: 30_000 } as const;

/** Re-sends of a request the API refused to authenticate (see the file comment), after a pause with jitter. */
export const AUTH_RESEND = {
	maxResends: 3,
	/** Long enough for another process's new token to reach n8n's database; doubles with every re-send. */
	baseDelayMs: 1_000,
	maxBackoffMs: 4_000,
} as const;

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']);
const TRANSIENT_STATUSES = new Set([502, 503, 504]);
/** A connection that broke or timed out after it was opened: the request may have been sent. */
const BROKEN_CONNECTION_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT', 'EPIPE']);
const BROKEN_CONNECTION_TEXT = /socket hang up|ECONNRESET|ETIMEDOUT|ECONNABORTED/i;

export function isIdempotent(method: string): boolean {
	return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** True when no answer arrived because the connection broke or timed out (not refused, not unresolvable). */
export function isBrokenConnection(failure: HttpFailure): boolean {
	if (failure.status !== undefined || !failure.reachedService) return false;
	if (failure.code !== undefined) return BROKEN_CONNECTION_CODES.has(failure.code);
	return BROKEN_CONNECTION_TEXT.test(failure.message);
}

function headerValue(headers: IDataObject, name: string): unknown {
	const direct = headers[name] ?? headers[name.toLowerCase()];
	if (direct !== undefined) return direct;
	const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
	return key === undefined ? undefined : headers[key];
}

/**
 * The wait a `Retry-After` header asks for, in ms: delay-seconds (`"120"`) or an HTTP date (a date in the past
 * is 0). Undefined when absent or unreadable (a negative number, text).
 */
export function retryAfterMs(headers: IDataObject, now: number = Date.now()): number | undefined {
	let raw = headerValue(headers, 'Retry-After');
	if (Array.isArray(raw)) raw = raw[0];
	if (typeof raw === 'number') raw = String(raw);
	if (typeof raw !== 'string' || raw.trim() === '') return undefined;
	const text = raw.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
	if (/^[+-]?\d/.test(text)) return undefined; // a negative or malformed number, not a date
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential wait number `step` (1-based) from `baseMs`, capped, with up to 25 % jitter on top. */
export function backoffMs(step: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
	const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, step - 1));
	// Jitter spreads out repeats of requests that failed together.
	return exponential + Math.floor(random() * exponential * 0.25);
}

/** A 429: the service's rate limit. The only answer the queue learns its pace from (adaptiveRate.ts). */
export function isSlowDown(failure: HttpFailure): boolean {
	return failure.status === 429;
}

/** A 429, or a 503 that says when to come back: the service did not process the request and wants a pause. */
export function isComeBackLater(failure: HttpFailure): boolean {
	return isSlowDown(failure) || (failure.status === 503 && retryAfterMs(failure.headers) !== undefined);
}

/**
 * The service is down rather than limiting this credential: any 5xx, a connection that broke or timed out, a
 * refused connection. Whatever status or wording a service picks for being down, none of it is a rate limit.
 * (Whether the request itself may be sent again is still `isRetryable`'s and `mayHaveBeenProcessed`'s rule.)
 */
export function isOutageSignal(failure: HttpFailure): boolean {
	if (failure.status !== undefined) return failure.status >= 500 && failure.status <= 599;
	return isBrokenConnection(failure) || failure.code === 'ECONNREFUSED';
}

/**
 * The message of the token cache's TokenReplacedError (credentials/sharedAccessToken.ts). Recognised by its text
 * too, because n8n 1.x's NodeApiError drops the error it wraps (and with it the `resendWithStoredToken` mark).
 */
export const TOKEN_REPLACED_MESSAGE = 'The Consignment Vendor API rejected an access token (HTTP 401) moments after it was issued';

/** A 401, or the token cache saying another process replaced the token: worth sending again (file comment). */
export function isAuthRejection(failure: HttpFailure, error: unknown): boolean {
	if (failure.status === 401) return true;
	const seen = new Set<unknown>();
	for (let current = error; typeof current === 'object' && current !== null && !seen.has(current); ) {
		seen.add(current);
		const marked = current as { resendWithStoredToken?: unknown; message?: unknown };
		if (marked.resendWithStoredToken === true || marked.message === TOKEN_REPLACED_MESSAGE) return true;
		current = (current as { cause?: unknown }).cause;
	}
	return false;
}

/** Whether a failure of a request sent with `method` is worth sending again (see the file comment). */
export function isRetryable(failure: HttpFailure, method: string): boolean {
	const { status } = failure;
	if (isComeBackLater(failure)) return true;
	if (!isIdempotent(method)) return false;
	if (status !== undefined) return TRANSIENT_STATUSES.has(status);
	return isBrokenConnection(failure);
}

/**
 * Failures that prove the request never left: no connection was made (refused, unresolvable host, no route) or
 * the TLS handshake failed before any byte of it was written.
 */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ERR_INVALID_URL']);
const TLS_REFUSED_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL/;

/**
 * True when a failed non-idempotent request may still have been carried out. It certainly was not only when we
 * know nothing reached the service (no request was attempted, the connection was refused, the host unknown) or
 * the service answered that it did not do it: a 4xx, a 429 or a 503 with Retry-After ("come back later"), a 501.
 * Anything else (another 5xx, a broken connection, a timeout, an abort, a failure of unknown kind after the
 * request was attempted) may have been carried out, so it must not be reported as "nothing was created".
 */
export function mayHaveBeenProcessed(failure: HttpFailure, method: string): boolean {
	return !isIdempotent(method) && attemptMayHaveRun(failure);
}

/**
 * The rule above for one attempt of any write: true when the service may have carried it out although no answer
 * said so. A PATCH or DELETE so failed is sent again (it is idempotent), but if every attempt then fails, the first
 * may still have been carried out (a DELETE whose answer was lost, then refused because the address is inactive).
 */
export function attemptMayHaveRun(failure: HttpFailure): boolean {
	const { status, code } = failure;
	if (status === undefined) {
		if (!failure.reachedService) return false;
		return code === undefined || !(NEVER_SENT_CODES.has(code) || TLS_REFUSED_CODE.test(code));
	}
	if (status >= 400 && status < 500) return false;
	if (status === 503 && retryAfterMs(failure.headers) !== undefined) return false;
	return status !== 501;
}

