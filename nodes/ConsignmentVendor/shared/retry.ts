/**
 * Bounded retry with exponential backoff, for every request the action node sends.
 *
 * Why: the contract documents no rate limits (docs/service-notes.md, "Not documented anywhere") and asks
 * clients to "limit retries and back off exponentially" (docs/vendor-api.md, Authentication 6). Without this,
 * one 429 on page 31 of a Return All failed the whole item, and one 503 failed a batch of 500 new items.
 *
 * Exported API:
 * - `sendWithRetry(context, method, send)`: runs `send` (one HTTP request) and repeats it while the failure
 *   is worth repeating (see `decideRetry`), waiting with n8n-workflow's `sleep` in between. The request is
 *   the same every time (same URL, query, body): a retried page is the same page. When it gives up it throws
 *   the last error unchanged, tagged with a `RetryOutcome` that `retryOutcomeOf` reads (errors.ts uses it to
 *   say how often it tried, or that the outcome of a POST is unknown).
 * - `decideRetry`, `retryAfterMs`, `backoffMs`, `isIdempotent`, `mayHaveBeenProcessed`, `RETRY_POLICY`:
 *   the decisions, pure, exported for errors.ts and tests.
 *
 * What is repeated:
 * - 429, for any method: the service says it did not process the request.
 * - 503 with Retry-After, for any method: the service says it is unavailable and when to come back.
 * - For idempotent requests only (GET, PATCH, DELETE, …), also 502/503/504 and a connection that broke or
 *   timed out (ECONNRESET, "socket hang up", ETIMEDOUT, …): sending them again cannot do anything twice.
 *   (PATCH bodies here are absolute values, not increments. A DELETE of an address that did go through the
 *   first time answers 409 "inactive" on the repeat; that is still no harm done.)
 * - Never for a POST (item creation, address creation, cancellation) on any other 5xx or a broken
 *   connection: the service may have carried it out before failing, and sending it again could create
 *   500 items or an address twice. Such a failure is reported as "outcome unknown" instead.
 * - Never 401 (n8n's own helper already exchanged a new token and repeated the request once), other 4xx,
 *   500 on any method (a server error that is not a known transient one), or refused/unresolvable
 *   connections (a wrong Base URL does not heal in a second).
 *
 * Waiting: attempt n failed → wait `base × 2^(n-1)` (capped) plus up to 25 % jitter, or the service's
 * Retry-After when that is longer. A Retry-After beyond `maxRetryAfterMs` is not waited for: the request
 * fails at once with the service's wait in the message. Waits end early when the execution is cancelled
 * (n8n 2.x passes the signal to `sleep`; n8n 1.x's `sleep(ms)` ignores it and just waits).
 * `base` is `baseDelayMs` (250 ms), except for a 429 whose Retry-After cannot be read: then
 * `rateLimitBaseDelayMs` (1 s), because "slow down" with no time given is not answered by a retry 250 ms
 * later. That is every 429 in n8n 1.x: its NodeApiError drops the request error it wraps (a `cause` class field
 * resets what `Error` stored), so a node never sees the headers of a failed response there; the e2e suite
 * caught it (1.x repeated a page 300 ms after a 429 with Retry-After: 1). The same holds for 503 + Retry-After
 * in 1.x: it counts as a plain 503 (a POST is then not repeated and reported as "outcome unknown").
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { readHttpFailure, type HttpFailure } from './httpFailure';

export interface RetryPolicy {
	/** Tries in all, the first one included. */
	maxAttempts: number;
	/** Wait after the first failed try; doubles with every further one. */
	baseDelayMs: number;
	/** Instead of baseDelayMs for a 429 without a readable Retry-After (see the file comment). */
	rateLimitBaseDelayMs: number;
	/** Upper bound of the doubling (Retry-After aside). */
	maxBackoffMs: number;
	/** The longest Retry-After the node waits for by itself; a longer one fails the request at once. */
	maxRetryAfterMs: number;
}

export const RETRY_POLICY: Readonly<RetryPolicy> = {
	maxAttempts: 4,
	baseDelayMs: 250,
	rateLimitBaseDelayMs: 1_000,
	maxBackoffMs: 8_000,
	maxRetryAfterMs: 60_000,
};

/** Why the retry loop stopped repeating a failed request. */
export type GiveUpReason = 'notRetryable' | 'attemptsUsed' | 'waitTooLong' | 'cancelled';

export type RetryVerdict = { retry: true; delayMs: number } | { retry: false; reason: GiveUpReason };

/** What the retry loop did before it let a request's error through (read by errors.ts). */
export interface RetryOutcome {
	/** Tries made, the failed last one included. */
	attempts: number;
	reason: GiveUpReason;
	/** Time spent waiting between tries. */
	waitedMs: number;
	/** True when the request was not idempotent and may have been carried out (see `mayHaveBeenProcessed`). */
	outcomeUnknown: boolean;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']);
const TRANSIENT_STATUSES = new Set([502, 503, 504]);
/** A connection that broke or timed out after it was opened: the request may have been sent. */
const BROKEN_CONNECTION_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT', 'EPIPE']);
const BROKEN_CONNECTION_TEXT = /socket hang up|ECONNRESET|ETIMEDOUT|ECONNABORTED/i;

const OUTCOME = Symbol('consignmentVendorRetryOutcome');

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

/**
 * The exponential wait after failed try number `attempt` (1-based), from `baseMs` (default the policy's
 * baseDelayMs), with up to 25 % jitter on top.
 */
export function backoffMs(
	attempt: number,
	policy: RetryPolicy = RETRY_POLICY,
	random: () => number = Math.random,
	baseMs: number = policy.baseDelayMs,
): number {
	const exponential = Math.min(policy.maxBackoffMs, baseMs * 2 ** Math.max(0, attempt - 1));
	// Jitter spreads out retries of requests that failed together (Upsert runs several lookups at once).
	return exponential + Math.floor(random() * exponential * 0.25);
}

/** Whether a failure of a request sent with `method` is worth sending again (see the file comment). */
export function isRetryable(failure: HttpFailure, method: string): boolean {
	const { status } = failure;
	if (status === 429) return true;
	if (status === 503 && retryAfterMs(failure.headers) !== undefined) return true;
	if (!isIdempotent(method)) return false;
	if (status !== undefined) return TRANSIENT_STATUSES.has(status);
	return isBrokenConnection(failure);
}

/**
 * True when a failed non-idempotent request may still have been carried out: a 5xx the service did not mark as
 * "come back later" (503 with Retry-After), or a connection that broke after the request went out.
 */
export function mayHaveBeenProcessed(failure: HttpFailure, method: string): boolean {
	if (isIdempotent(method)) return false;
	const { status } = failure;
	if (status === undefined) return isBrokenConnection(failure);
	if (status === 503 && retryAfterMs(failure.headers) !== undefined) return false;
	return status >= 500 && status !== 501;
}

/** Repeat or give up, after failed try number `attempt` (1-based). */
export function decideRetry(
	failure: HttpFailure,
	method: string,
	attempt: number,
	policy: RetryPolicy = RETRY_POLICY,
	random: () => number = Math.random,
	now: number = Date.now(),
): RetryVerdict {
	if (!isRetryable(failure, method)) return { retry: false, reason: 'notRetryable' };
	const asked = retryAfterMs(failure.headers, now);
	if (asked !== undefined && asked > policy.maxRetryAfterMs) return { retry: false, reason: 'waitTooLong' };
	if (attempt >= policy.maxAttempts) return { retry: false, reason: 'attemptsUsed' };
	const base = failure.status === 429 && asked === undefined ? policy.rateLimitBaseDelayMs : policy.baseDelayMs;
	return { retry: true, delayMs: Math.max(asked ?? 0, backoffMs(attempt, policy, random, base)) };
}

/** The `RetryOutcome` a request error was tagged with by `sendWithRetry`, if any. */
export function retryOutcomeOf(error: unknown): RetryOutcome | undefined {
	if (error === null || typeof error !== 'object') return undefined;
	return (error as { [OUTCOME]?: RetryOutcome })[OUTCOME];
}

function tagged(error: unknown, outcome: RetryOutcome): unknown {
	if (error !== null && typeof error === 'object' && Object.isExtensible(error)) {
		// Not enumerable: it must not end up in the execution data when n8n serialises the error.
		Object.defineProperty(error, OUTCOME, { value: outcome, enumerable: false, configurable: true });
	}
	return error;
}

/** The part of an n8n execution context this needs (every node context has it; test doubles may not). */
export interface RetryContext {
	getExecutionCancelSignal?: () => AbortSignal | undefined;
}

function cancelSignalOf(context: RetryContext): AbortSignal | undefined {
	return typeof context.getExecutionCancelSignal === 'function' ? context.getExecutionCancelSignal() : undefined;
}

/**
 * Sends one request through `send`, repeating it while `decideRetry` says so. `method` is the request's HTTP
 * method (default GET, as in n8n). Throws the last error, tagged with its `RetryOutcome`.
 */
export async function sendWithRetry<T>(
	context: RetryContext,
	method: string | undefined,
	send: () => Promise<T>,
	policy: RetryPolicy = RETRY_POLICY,
): Promise<T> {
	const verb = (method ?? 'GET').toUpperCase();
	let waitedMs = 0;
	for (let attempt = 1; ; attempt++) {
		try {
			return await send();
		} catch (error) {
			const failure = readHttpFailure(error);
			const giveUp = (reason: GiveUpReason) =>
				tagged(error, { attempts: attempt, reason, waitedMs, outcomeUnknown: mayHaveBeenProcessed(failure, verb) });
			const verdict = decideRetry(failure, verb, attempt, policy);
			if (!verdict.retry) throw giveUp(verdict.reason);
			const signal = cancelSignalOf(context);
			if (signal?.aborted) throw giveUp('cancelled');
			try {
				await sleep(verdict.delayMs, signal);
			} catch {
				// Only a cancelled execution interrupts the wait; the request's own error says more than the abort.
				throw giveUp('cancelled');
			}
			waitedMs += verdict.delayMs;
		}
	}
}
