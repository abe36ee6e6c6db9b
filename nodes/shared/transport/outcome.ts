/**
 * What the scheduler did before it let a request's error through, attached to the error itself so that
 * errors.ts can say how long the node waited, why it stopped, or that a POST's outcome is unknown.
 */

/** Why the scheduler stopped sending a failed request again. */
export type GiveUpReason =
	/** The failure is not one that repeating can fix (4xx, 500, a refused connection, a POST that may have run). */
	| 'notRetryable'
	/** A transient failure (5xx, broken connection) repeated until its attempts were used. */
	| 'attemptsUsed'
	/** No request of this credential succeeded for "Give Up After No Success For". */
	| 'noProgress'
	/** This request waited longer than "Max Wait per Request". */
	| 'waitedTooLong'
	/** The service asked for a pause (Retry-After) longer than either limit allows. */
	| 'pauseTooLong'
	/** The execution was cancelled while the request waited. */
	| 'cancelled'
	/**
	 * The caller stopped (a runner, after another item failed) before the request was sent, or before it was sent
	 * again; one already on the wire was waited for.
	 */
	| 'withdrawn';

export interface RetryOutcome {
	/** Times the request was sent, the failed last one included. */
	attempts: number;
	reason: GiveUpReason;
	/** From when the request was queued until it was given up. */
	waitedMs: number;
	/** Times the service answered 429 (or 503 with Retry-After) to it. */
	rateLimited: number;
	/** True when the request was not idempotent and may have been carried out. */
	outcomeUnknown: boolean;
	/** The limits in force, for the message. */
	noProgressLimitMs: number;
	maxWaitMs: number;
	/** Request Options → Timeout: how long each attempt waited for an answer. */
	timeoutMs?: number;
	/** The pause the service last asked for, when it said. */
	askedPauseMs?: number;
}

const OUTCOME = Symbol('consignmentVendorRetryOutcome');

export function retryOutcomeOf(error: unknown): RetryOutcome | undefined {
	if (error === null || typeof error !== 'object') return undefined;
	return (error as { [OUTCOME]?: RetryOutcome })[OUTCOME];
}

/** Returns `error` tagged with `outcome` (not enumerable: it must not end up in the execution data). */
export function withOutcome(error: unknown, outcome: RetryOutcome): unknown {
	if (error !== null && typeof error === 'object' && Object.isExtensible(error)) {
		Object.defineProperty(error, OUTCOME, { value: outcome, enumerable: false, configurable: true });
	}
	return error;
}
