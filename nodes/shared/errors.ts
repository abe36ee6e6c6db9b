/**
 * The one place that turns a failed request into an error a user can act on. n8n refreshes the token only when a
 * request THROWS with status 401, so requests keep throwing and are mapped here afterwards: a 401 that reaches us
 * is a 401 on the retried request. Errors are rebuilt from status, the service's text (redacted) and the URL path,
 * never headers or the axios config, so no token or secret reaches a message.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isNodeApiError, isRequestError, readHttpFailure, redactSecrets, serviceMessage, type HttpFailure } from './httpFailure';
import { describeRateLimitGiveUp, describeRefusedRepeat, describeTimeout, describeUnknownOutcome, isTimeout, plural, triedSentence, WRITE_RERUN_ADVICE } from './retryMessages';
import { describeSsrfRefusal, ssrfRefusalOf } from './ssrfRefusal';
import { retryOutcomeOf, withOutcome, type RetryOutcome } from './transport/outcome';
import { attemptMayHaveRun, isIdempotent, mayHaveBeenProcessed, retryAfterMs } from './transport/retryRules';

/** What a failed request was about, so a 404 can name it. */
export interface ApiErrorSubject {
	kind: 'item' | 'address' | 'consignment' | 'order' | 'vendor';
	/** For orders, the platform sku. */
	id?: string | number;
}

interface ApiErrorContext {
	itemIndex?: number;
	runIndex?: number;
	subject?: ApiErrorSubject;
	/** A write not safe to repeat gets no "Retry On Fail" advice, and its outcome is judged even outside the queue. */
	method?: string;
}

/** Marks NodeApiErrors made here, so mapping twice (an operation, then the runner) keeps the first message. */
const MAPPED = Symbol('consignmentVendorMappedError');

function notFoundMessage(subject: ApiErrorSubject | undefined): { message: string; hint?: string } {
	const id = subject?.id === undefined ? '' : ` ${String(subject.id)}`;
	switch (subject?.kind) {
		case 'item':
			return {
				message: `Item with item_id${id} was not found`,
				hint: 'Use the item\'s "item_id" (the platform item ID, sent in the item-created webhook and listed by Item → Get Many), not its "id" (the variant ID, which the API does not accept).',
			};
		case 'address':
			return {
				message: `Address${id} was not found`,
				hint: 'Check the address ID: Address → Get Many lists the vendor\'s addresses. Deleted (inactive) addresses cannot be changed.',
			};
		case 'consignment':
			return {
				message: `Consignment${id} was not found`,
				hint: 'Pick the consignment from the list, or check the ID with Consignment → Get Many. Consignments cannot be created through the API.',
			};
		case 'order':
			return {
				message: `No order with platform SKU${id} was found`,
				hint: 'Use the platform "sku" from the order webhook (item_purchased), not your vendor_sku.',
			};
		default:
			return { message: 'The requested record was not found' };
	}
}

interface Mapped {
	message: string;
	description?: string;
}

/** What the queue concluded, or, for an error that did not pass through it, the same rule. */
function mayHaveRun(failure: HttpFailure, outcome: RetryOutcome | undefined, method: string | undefined): boolean {
	return outcome?.outcomeUnknown ?? (method !== undefined && mayHaveBeenProcessed(failure, method));
}

function describe(
	failure: HttpFailure,
	subject: ApiErrorSubject | undefined,
	outcome: RetryOutcome | undefined,
	method: string | undefined,
): Mapped {
	if (!mayHaveRun(failure, outcome, method)) return describeFailure(failure, subject, outcome, method);
	const said = saidSentenceOf(failure);
	if (method === undefined || !earlierAttemptOnly(failure, outcome, method)) return describeUnknownOutcome(failure, subject?.kind, said, outcome, method);
	// An update or deletion sent again after an attempt that may have run: a refused repeat proves nothing; one that
	// failed otherwise (a 401, a 429 given up) keeps its own words, and says the earlier attempt may have run.
	if (provesRepeatNotDone(failure)) return describeRefusedRepeat(failure, subject?.kind, said, method);
	const own = describeFailure(failure, subject, outcome, method);
	return { message: own.message, description: [EARLIER_ATTEMPT_MAY_HAVE_RUN, own.description].filter(Boolean).join(' ') };
}

function saidSentenceOf(failure: HttpFailure): string | undefined {
	const said = serviceMessage(failure.body);
	return said ? `The service said: ${said}` : undefined;
}

/** An idempotent write whose outcome is unknown because of an earlier attempt, not of its last one. */
function earlierAttemptOnly(failure: HttpFailure, outcome: RetryOutcome | undefined, method: string | undefined): boolean {
	return method !== undefined && isIdempotent(method) && outcome?.reason !== 'cancelled' && !attemptMayHaveRun(failure);
}

/** The last attempt was refused outright (a 4xx other than 401 and 429) or never sent: nothing else explains it. */
function provesRepeatNotDone(failure: HttpFailure): boolean {
	const { status } = failure;
	if (status === undefined) return true;
	return status >= 400 && status < 500 && status !== 401 && status !== 429;
}

const EARLIER_ATTEMPT_MAY_HAVE_RUN =
	'Outcome unknown: an earlier attempt of this update or deletion may have been carried out (no answer came, or a server error); check it before sending it again.';

function describeFailure(
	failure: HttpFailure,
	subject: ApiErrorSubject | undefined,
	outcome: RetryOutcome | undefined,
	method: string | undefined,
): Mapped {
	const said = serviceMessage(failure.body);
	const saidSentence = saidSentenceOf(failure);
	const join = (...parts: Array<string | undefined>) => parts.filter(Boolean).join(' ') || undefined;
	const status = failure.status;
	const tried = triedSentence(outcome);
	// Re-running the node repeats every write that went through: only reads and absolute PATCHes may be re-run whole.
	const rerunAdvice = method !== undefined && !isIdempotent(method) ? WRITE_RERUN_ADVICE : undefined;

	// A timeout reached the service and may come from a slow answer: "could not be reached, check the Base URL" misleads.
	if (isTimeout(failure)) return describeTimeout(outcome, rerunAdvice);
	if (status === undefined) {
		const reason = redactSecrets(failure.code ?? failure.message) || 'no response';
		return {
			message: `The service could not be reached (${reason})`,
			description: join(
				tried,
				'Check the Base URL in the credential and the network between n8n and the service, then try again.',
				rerunAdvice,
			),
		};
	}
	if (status === 401) {
		const tokenRequest = failure.path?.endsWith('/bearer-token');
		return {
			message: tokenRequest
				? 'Credentials rejected — the token request was refused: check the Client ID, Client Secret and Auth URL in the credential'
				: 'Credentials rejected — check the Client ID/Secret in the credential',
			description: join(
				tokenRequest
					? undefined
					: 'The service answered 401 even after n8n requested a new access token.',
				saidSentence,
			),
		};
	}
	if (status === 403) {
		return {
			message: 'Permission denied — the API user needs vendor permissions',
			description: join(
				'The service answered 403: the client ID/secret belong to a user that may not do this. Ask the service for credentials of a vendor user.',
				saidSentence,
			),
		};
	}
	if (status === 404) {
		const { message, hint } = notFoundMessage(subject);
		return { message: said ? `${message}: ${said}` : message, description: hint };
	}
	if (status === 400 || status === 422) {
		return {
			message: said ? `The service rejected the request: ${said}` : `The service rejected the request (HTTP ${status})`,
			description: 'Correct the field the message names and run the node again.',
		};
	}
	if (status === 413) {
		return {
			message: 'Too many items in one request — the service accepts at most 500 items per creation request',
			description: saidSentence,
		};
	}
	if (status === 429) {
		const wait = Math.ceil((retryAfterMs(failure.headers) ?? 0) / 1000);
		return {
			message:
				wait === 0
					? 'Rate limited by the service — wait before retrying'
					: `Rate limited by the service — retry after ${plural(wait, 'second')}`,
			description: join(describeRateLimitGiveUp(outcome), rerunAdvice, saidSentence),
		};
	}
	if (status >= 500) {
		return {
			message: `The service failed to process the request (HTTP ${status}) — try again later`,
			description: join(
				tried,
				'This is a problem on the service side.',
				rerunAdvice ?? `"Retry On Fail" in the node settings can absorb ${tried ? 'longer' : 'short'} outages.`,
				saidSentence,
			),
		};
	}
	return {
		message: said ? `The service answered HTTP ${status}: ${said}` : `The service answered HTTP ${status}`,
	};
}

export function outcomeIsUnknown(error: unknown, method: string): boolean {
	return mayHaveRun(readHttpFailure(error), retryOutcomeOf(error), method);
}

function keptWithItemIndex<T extends NodeApiError | NodeOperationError>(error: T, itemIndex: number | undefined): T {
	if (itemIndex !== undefined && error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
	return error;
}

export function toNodeApiError(
	node: INode,
	error: unknown,
	context: ApiErrorContext = {},
): NodeApiError | NodeOperationError {
	const { itemIndex, runIndex, subject, method } = context;
	// By name as well as class: n8n-core may throw from another copy of n8n-workflow (httpFailure.ts isNodeApiError).
	const operationError = error instanceof NodeOperationError || (error instanceof Error && error.name === 'NodeOperationError');
	if (operationError || (isNodeApiError(error) && MAPPED in error)) {
		return keptWithItemIndex(error as NodeApiError | NodeOperationError, itemIndex);
	}
	const refusal = ssrfRefusalOf(error);
	if (refusal !== undefined) return mappedError(node, { ...describeSsrfRefusal(refusal, 'the service\'s Base URL'), status: undefined }, itemIndex, runIndex);
	// A write the queue gave up while it was on the wire (the execution was cancelled) is worded as any unknown outcome.
	if (!isRequestError(error) && retryOutcomeOf(error)?.outcomeUnknown !== true) {
		// Not from a request (a bug, or a plain Error from our own code): keep its message.
		return keepingOutcome(new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex, runIndex }), error);
	}
	const failure = readHttpFailure(error);
	if (failure.status === undefined && !failure.reachedService && isNodeApiError(error)) {
		// Raised before any HTTP exchange (the credential's token exchange words its own message).
		return keptWithItemIndex(error, itemIndex);
	}
	const { message, description } = describe(failure, subject, retryOutcomeOf(error), method);
	return keepingOutcome(mappedError(node, { message, description, status: failure.status, said: serviceMessage(failure.body) }, itemIndex, runIndex), error);
}

/**
 * What the queue did stays readable on the mapped error: the runners tell a row that was never sent, one refused and
 * one whose outcome is unknown apart by it (itemRunner.ts), whatever wording the error got.
 */
function keepingOutcome<T extends NodeApiError | NodeOperationError>(mapped: T, error: unknown): T {
	const outcome = retryOutcomeOf(error);
	return outcome === undefined ? mapped : (withOutcome(mapped, outcome) as T);
}

function mappedError(
	node: INode,
	{ message, description, status, said }: Mapped & { status: number | undefined; said?: string },
	itemIndex: number | undefined,
	runIndex: number | undefined,
): NodeApiError {
	// A plain object on purpose: the original error's request config holds the Authorization header.
	const response: JsonObject = { message, httpStatus: status ?? null };
	if (said !== undefined) response.serviceMessage = said;
	const mapped = new NodeApiError(node, response, {
		message,
		description,
		httpCode: status === undefined ? undefined : String(status),
		itemIndex,
		runIndex,
	});
	// NodeApiError replaces the message with a generic one for some status codes; ours is more specific.
	mapped.message = message;
	Object.defineProperty(mapped, MAPPED, { value: true, enumerable: false });
	return mapped;
}
