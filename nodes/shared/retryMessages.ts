/**
 * What errors.ts says about what the transport's queue did (transport/scheduler.ts): how long it waited and
 * why it stopped, which option to change, and, for a POST that failed mid-way and was deliberately not
 * repeated, that its outcome is unknown.
 */
import { redactSecrets, type HttpFailure } from './httpFailure';
import type { RetryOutcome } from './transport/outcome';

export function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function seconds(ms: number): string {
	return plural(Math.max(1, Math.round(ms / 1000)), 'second');
}

function duration(ms: number): string {
	return ms >= 120_000 ? plural(Math.round(ms / 60_000), 'minute') : seconds(ms);
}

/** What the queue did before a transient failure got through (undefined when it sent the request once). */
export function triedSentence(outcome: RetryOutcome | undefined): string | undefined {
	if (!outcome || outcome.attempts < 2) return undefined;
	return `The node sent the request ${plural(outcome.attempts, 'time')} over about ${seconds(outcome.waitedMs)}.`;
}

/** Why the queue stopped waiting out the service's rate limit, and what the user can change. */
export function describeRateLimitGiveUp(outcome: RetryOutcome | undefined): string {
	const waited = outcome ? `The node waited ${duration(outcome.waitedMs)} for this request` : 'The service refused the request';
	const lowerRate = 'or set Request Options → Max Requests per Second below the service\'s quota';
	switch (outcome?.reason) {
		case 'pauseTooLong':
			return `The service asked for a pause of ${duration(outcome.askedPauseMs ?? 0)}, longer than the node's limits (Give Up After No Success For ${duration(outcome.noProgressLimitMs)}, Max Wait per Request ${duration(outcome.maxWaitMs)}), so it stopped at once. Run the workflow again after that time, or raise those limits in Request Options.`;
		case 'noProgress':
			return `${waited}, and no request with this credential succeeded for ${duration(outcome.noProgressLimitMs)} (Request Options → Give Up After No Success For), so the service seems overloaded or its quota used up. Run the workflow again later, raise that limit, ${lowerRate}.`;
		case 'waitedTooLong':
			return `${waited}, the most Request Options → Max Wait per Request allows (${duration(outcome.maxWaitMs)}), while other requests shared the service's rate limit. Raise that limit, send fewer items per run, ${lowerRate}.`;
		case 'cancelled':
			return 'The execution was cancelled while the request waited for the rate limit.';
		default:
			return `${waited}. Run the workflow again later, ${lowerRate}.`;
	}
}

/**
 * A non-idempotent request (POST) that failed in a way that does not say whether it was carried out. It was
 * not repeated (transport/retryRules.ts); the user must check before running the node again, or items may be created twice.
 */
export function describeUnknownOutcome(
	failure: HttpFailure,
	subjectKind: string | undefined,
	saidSentence: string | undefined,
): { message: string; description: string } {
	// The low-level reason (ECONNRESET, …) goes in the description: n8n replaces any error message containing
	// such a code with its own generic text, which would lose "outcome unknown" wherever this message is wrapped.
	const brokenConnection = failure.status === undefined;
	const what = brokenConnection
		? 'the connection broke after the request was sent'
		: `the service failed while handling the request (HTTP ${failure.status})`;
	const reason = brokenConnection ? `Connection error: ${redactSecrets(failure.code ?? failure.message) || 'no response'}.` : undefined;
	const howToCheck =
		subjectKind === 'consignment'
			? 'For new items: Item → Get Many Non-Approved filtered by Vendor SKU shows whether they were created.'
			: subjectKind === 'order'
				? 'Check the order with the service before cancelling it again.'
				: 'List the records (for example Address → Get Many) to see whether it took effect.';
	return {
		message: `Outcome unknown — ${what}; it may or may not have been carried out. Check before running again`,
		description: [
			'It was not sent again, because repeating a creation or cancellation could carry it out twice.',
			howToCheck,
			reason,
			saidSentence,
		]
			.filter(Boolean)
			.join(' '),
	};
}
