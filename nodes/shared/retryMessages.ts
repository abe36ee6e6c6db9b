import { redactSecrets, type HttpFailure } from './httpFailure';
import type { RetryOutcome } from './transport/outcome';
import { isIdempotent, TRANSIENT_RETRY } from './transport/retryRules';

export function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function seconds(ms: number): string {
	return plural(Math.max(1, Math.round(ms / 1000)), 'second');
}

/** A timeout as the user set it: Request Options → Timeout is in ms, and "1 second" for 150 ms would be wrong. */
function timeoutLength(ms: number): string {
	return ms < 1000 ? `${ms} ms` : seconds(ms);
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
		case 'withdrawn':
			return 'The node stopped sending requests after another item failed, so this one was not sent again.';
		default:
			return `${waited}. Run the workflow again later, ${lowerRate}.`;
	}
}

/** Failures without an answer where the wait ran out, rather than the connection breaking. */
const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);

/**
 * No answer because a wait ran out. n8n's HTTP client names its own timeout ECONNABORTED or ETIMEDOUT depending on
 * the version, and words it "timeout of N ms exceeded": all of them are the same event for the user.
 */
export function isTimeout(failure: HttpFailure): boolean {
	if (failure.status !== undefined) return false;
	if (failure.code !== undefined && TIMEOUT_CODES.has(failure.code)) return true;
	return /\btimeout\b|timed out/i.test(failure.message);
}

/** Which setting governs a timeout of the API's requests, and how it adds up over the attempts. */
function timeoutSetting(outcome: RetryOutcome | undefined): string {
	const perAttempt = outcome?.timeoutMs === undefined ? '' : ` (${timeoutLength(outcome.timeoutMs)} now)`;
	return `Request Options → Timeout sets how long each attempt waits for an answer${perAttempt}; a read, an update or a deletion is sent up to ${TRANSIENT_RETRY.maxAttempts} times, a creation or cancellation once.`;
}

/** A request of the API that timed out: how long each attempt waited, how many there were, and what to change. */
export function describeTimeout(outcome: RetryOutcome | undefined, rerunAdvice: string | undefined): { message: string; description: string } {
	const attempts = outcome?.attempts ?? 1;
	const within = outcome?.timeoutMs === undefined ? '' : ` within ${timeoutLength(outcome.timeoutMs)}`;
	const stoppedEarly =
		outcome?.reason === 'waitedTooLong'
			? `The node stopped trying after ${seconds(outcome.waitedMs)}: Request Options → Max Wait per Request (${duration(outcome.maxWaitMs)}) does not leave time for another attempt.`
			: undefined;
	return {
		message: `The request timed out: the service sent no answer${within}, ${attempts === 1 ? 'on the one attempt' : `on each of ${attempts} attempts`}`,
		description: [
			stoppedEarly,
			timeoutSetting(outcome),
			'The service may be slow or overloaded: run the workflow again later, or raise the Timeout.',
			rerunAdvice,
		]
			.filter(Boolean)
			.join(' '),
	};
}

/**
 * What to do after a failed write that is not safe to repeat (a POST: creation, cancellation). "Retry On Fail"
 * and re-running the node send every input item again, those that went through included.
 */
export const WRITE_RERUN_ADVICE =
	'Send only the failed items again (Continue On Fail gives one output item per input item, failed ones included): running the whole node again, or "Retry On Fail", sends every input item again, those that went through included.';

/** Where to check what a write whose outcome is unknown did. */
function howToCheck(subjectKind: string | undefined, method: string | undefined): string {
	const verb = method?.toUpperCase();
	switch (subjectKind) {
		case 'consignment':
			return 'To check: Item → Get Many Non-Approved with Filters → Vendor SKU set to each item\'s SKU lists it if it was created (or wait for the trigger\'s successful_item_upload / invalid_item_upload event); send again only the SKUs it does not list.';
		case 'order':
			return 'To check: look at the order in the marketplace\'s vendor portal (the API has no way to read a cancellation) before sending this cancellation again.';
		case 'address':
			if (verb === 'DELETE') return 'To check: Address → Get Many shows whether the address is still active.';
			if (verb === 'PATCH') return 'To check: Address → Get Many shows the address as the service holds it now.';
			return 'To check: Address → Get Many lists the address if it was created; send it again only if it is not there.';
		case 'item':
			if (verb === 'PATCH') return 'To check: Item → Get shows the item as the service holds it now.';
			return 'To check: list the records with the matching Get Many operation before sending it again.';
		default:
			return 'To check: list the records with the matching Get Many operation before sending it again.';
	}
}

/**
 * An update or deletion sent again after an attempt that may have been carried out (no answer, or a 5xx), whose repeat
 * was refused or could not be sent. The refusal is no proof that nothing was done: a deletion already carried out is
 * exactly what makes a service refuse the second one.
 */
export function describeRefusedRepeat(
	failure: HttpFailure,
	subjectKind: string | undefined,
	saidSentence: string | undefined,
	method: string,
): { message: string; description: string } {
	const repeat = failure.status === undefined ? 'the repeat could not be sent' : `the service refused the repeat (HTTP ${failure.status})`;
	return {
		message: `Outcome unknown — an earlier attempt may have been carried out (no answer came, or a server error), and ${repeat}`,
		description: [
			`The refusal may come from that earlier attempt: ${method.toUpperCase() === 'DELETE' ? 'a deletion already carried out cannot be carried out again' : 'it may have changed what the repeat was checked against'}.`,
			howToCheck(subjectKind, method),
			failure.status === undefined ? `Connection error: ${redactSecrets(failure.code ?? failure.message) || 'no response'}.` : undefined,
			saidSentence,
		]
			.filter(Boolean)
			.join(' '),
	};
}

/**
 * A write the service may have carried out although no answer said so. A creation or cancellation is not repeated
 * (transport/retryRules.ts): the user must check before sending it again, or it may be carried out twice.
 */
export function describeUnknownOutcome(
	failure: HttpFailure,
	subjectKind: string | undefined,
	saidSentence: string | undefined,
	outcome: RetryOutcome | undefined,
	method?: string,
): { message: string; description: string } {
	const cancelledOnTheWire = outcome?.reason === 'cancelled';
	const repeatable = method !== undefined && isIdempotent(method);
	const timedOut = !cancelledOnTheWire && isTimeout(failure);
	// The low-level reason (ECONNRESET, …) goes in the description: n8n replaces any error message containing
	// such a code with its own generic text, which would lose "outcome unknown" wherever this message is wrapped.
	const noAnswer = failure.status === undefined;
	const what = cancelledOnTheWire
		? 'the execution was cancelled after the request was sent'
		: !noAnswer
		? `the service failed while handling the request (HTTP ${failure.status})`
		: timedOut
			? 'no answer came before the timeout'
			: 'the connection broke after the request was sent';
	const reason = noAnswer && !cancelledOnTheWire ? `Connection error: ${redactSecrets(failure.code ?? failure.message) || 'no response'}.` : undefined;
	return {
		message: `Outcome unknown — ${what}, so it may have been carried out: ${repeatable ? 'sending it again is safe' : 'check before sending it again'}`,
		description: [
			repeatable
				? 'Sending it again is safe: an update or deletion carried out twice has the effect of one.'
				: 'The node did not send it again, because repeating a creation or cancellation could carry it out twice.',
			howToCheck(subjectKind, method),
			reason,
			timedOut ? timeoutSetting(outcome) : undefined,
			saidSentence,
		]
			.filter(Boolean)
			.join(' '),
	};
}
