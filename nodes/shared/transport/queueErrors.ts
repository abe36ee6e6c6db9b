/**
 * The errors of requests the queue (scheduler.ts) gives up before they were ever sent: not HTTP errors, nothing
 * reached the service, and their messages say so.
 */
import type { RequestSettings } from './settings';

/** What the message needs of the queued request. */
export interface NotSentJob {
	interactive: boolean;
	enqueuedAt: number;
	settings: RequestSettings;
}

/**
 * The error of a request given up in the queue before it was ever sent (Max Wait per Request). Not an HTTP error:
 * nothing reached the service, and the message says so.
 */
export function notSentError(job: NotSentJob, now: number, startAt: number): Error {
	const duration = (ms: number) => (ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.max(1, Math.round(ms / 1000))} s`);
	const held = startAt > now ? `; the service's rate limit holds this credential's requests for another ${duration(startAt - now)}` : '';
	if (job.interactive) {
		// The trigger's steps and the editor's lists have fixed limits, not the node's Request Options.
		return new Error(`Not sent: this request could not be sent within the ${duration(job.settings.maxWaitMs)} it may wait${held}, so nothing was sent for it. Try again in a moment.`);
	}
	return new Error(
		`Not sent: after ${duration(now - job.enqueuedAt)} in the queue of this credential's requests, this request could not be sent within Request Options → Max Wait per Request (${duration(job.settings.maxWaitMs)})${held}, so nothing was sent for it. Other requests with the same credential were using the service's rate limit: raise that limit, send fewer items per run, or run the workflows one after another.`,
	);
}

export function cancelledError(): Error {
	return new Error('The execution was cancelled while the request waited in the queue');
}

/** The node stopped sending after another item failed (the runner's withdrawal): this one never left. */
export function withdrawnError(): Error {
	return new Error('Not sent: the node stopped sending requests after another item failed, so nothing was sent for this one');
}
