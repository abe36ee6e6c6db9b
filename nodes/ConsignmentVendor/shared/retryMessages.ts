/**
 * What errors.ts says about the node's own retries (retry.ts): how often it tried, and, for a POST that failed
 * mid-way and was deliberately not repeated, that its outcome is unknown.
 */
import { redactSecrets, type HttpFailure } from './httpFailure';
import type { RetryOutcome } from './retry';

export function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** What the node's own retries did, for descriptions (undefined when it tried once or did not retry). */
export function triedSentence(outcome: RetryOutcome | undefined): string | undefined {
	if (!outcome || outcome.attempts < 2) return undefined;
	const waited = Math.max(1, Math.round(outcome.waitedMs / 1000));
	return `The node already sent the request ${plural(outcome.attempts, 'time')}, waiting about ${plural(waited, 'second')} in all between tries.`;
}

/**
 * A non-idempotent request (POST) that failed in a way that does not say whether it was carried out. It was
 * not repeated (retry.ts); the user must check before running the node again, or items may be created twice.
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
