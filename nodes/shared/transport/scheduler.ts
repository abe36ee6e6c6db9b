/**
 * One queue per credential (base URL + client id) for the whole n8n process, shared by every execution.
 *
 * Why: n8n starts every input item's request at once, and a real service has a rate limit it does not
 * document. Retrying each request on its own sends the retries back in waves that the limit cuts down again,
 * until their attempts run out (600 updates at 20 req/s lost 428 items that way). Here:
 * - at most `maxConcurrent` requests are in flight (per the node's Request Options);
 * - a 429 (or a 503 with Retry-After) pauses the WHOLE queue for the time the service asks (or a backoff when it
 *   does not say, as always in n8n 1.x), then the queue resumes at the rate that actually got through and
 *   speeds up again as requests succeed (adaptiveRate.ts); the refused request goes back to the front;
 * - a 429 is not a failed attempt: a request is given up only when the credential has had no success for
 *   `noProgressLimitMs`, or the request has waited `maxWaitMs` in all, or the service asks for a longer pause
 *   than either allows;
 * - a 401 that outlived n8n's own token refresh is sent again a few times after a pause (another n8n process may
 *   have replaced the token: retryRules.ts);
 * - transient failures (5xx, broken connections) of requests that are safe to repeat are retried a few times
 *   with backoff, without holding a slot; a POST is never repeated unless the service said it did not process it;
 * - every request carries a timeout (set by transport.ts), so a hung endpoint cannot hold a slot for ever.
 */
import { sleep } from 'n8n-workflow';

import { readHttpFailure, type HttpFailure } from '../httpFailure';
import { AdaptiveRate } from './adaptiveRate';
import { withOutcome, type GiveUpReason } from './outcome';
import {
	AUTH_RESEND,
	backoffMs,
	isAuthRejection,
	isRetryable,
	isSlowDown,
	mayHaveBeenProcessed,
	RATE_LIMIT_BACKOFF,
	retryAfterMs,
	TRANSIENT_RETRY,
} from './retryRules';
import type { PaceSettings } from './settings';

/** A queue with nothing to do for this long starts afresh (see `run`). */
const IDLE_RESET_MS = 5_000;
/** A 429 this soon after a success is the quota being shared, not the service refusing everything (onSlowDown). */
const SHARED_QUOTA_WINDOW_MS = 5_000;

export interface ScheduledRequest<T> {
	method: string;
	send: () => Promise<T>;
	settings: PaceSettings;
	/** The execution's cancel signal: a cancelled execution's waiting requests leave the queue at once. */
	signal?: AbortSignal;
}

interface Job {
	method: string;
	send: () => Promise<unknown>;
	settings: PaceSettings;
	signal?: AbortSignal;
	enqueuedAt: number;
	startedInEpoch: number;
	attempts: number;
	transientFailures: number;
	authResends: number;
	rateLimited: number;
	askedPauseMs?: number;
	resolve: (value: unknown) => void;
	reject: (error: unknown) => void;
	settled: boolean;
}

export class RequestScheduler {
	private readonly queue: Job[] = [];
	private inFlight = 0;
	private pumping = false;
	private slotWaiters: Array<() => void> = [];
	private nextStartAt = 0;
	private pausedUntil = 0;
	/** Counts the queue's pauses; a 429 to a request sent before the latest one is not news. */
	private pauseEpoch = 0;
	private slowDownsSinceSuccess = 0;
	private lastSlowDown?: unknown;
	private lastProgressAt: number;
	/** When a request of this queue last succeeded (not reset when the queue idles, unlike lastProgressAt). */
	private lastSuccessAt = Number.NEGATIVE_INFINITY;
	private lastActivityAt = Number.NEGATIVE_INFINITY;
	private readonly rate: AdaptiveRate;

	/** `random`: in [0, 1), the pace's jitter (adaptiveRate.ts); tests pass a seeded one. */
	constructor(
		private readonly now: () => number = Date.now,
		private readonly random: () => number = Math.random,
	) {
		this.lastProgressAt = now();
		this.rate = new AdaptiveRate(this.lastProgressAt, random);
	}

	/** The pace the queue keeps now (req/s), undefined when unpaced; for tests and the bench. */
	get currentRate(): number | undefined {
		return this.rate.current;
	}

	async run<T>(request: ScheduledRequest<T>): Promise<T> {
		return await new Promise<T>((resolve, reject) => {
			const now = this.now();
			if (this.queue.length === 0 && this.inFlight === 0 && now - this.lastActivityAt > IDLE_RESET_MS) {
				// Idle for a while: the "no success for …" clock and the rate's cycle start with this work. (A
				// paginator's pages come one at a time, so a queue that is empty for a moment is not idle.)
				this.lastProgressAt = now;
				this.rate.restartCycle(now);
			}
			const job: Job = {
				...request,
				method: request.method.toUpperCase(),
				send: request.send,
				enqueuedAt: now,
				startedInEpoch: 0,
				attempts: 0,
				transientFailures: 0,
				authResends: 0,
				rateLimited: 0,
				resolve: resolve as (value: unknown) => void,
				reject,
				settled: false,
			};
			if (request.signal) {
				if (request.signal.aborted) return reject(cancelledError());
				request.signal.addEventListener('abort', () => this.cancel(job), { once: true });
			}
			this.queue.push(job);
			void this.pump();
		});
	}

	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			while (this.queue.length > 0) {
				const job = this.queue[0];
				const now = this.now();
				if (this.noProgressFor(job, now)) {
					this.queue.shift();
					this.giveUp(job, Object.create(this.lastSlowDown as object) as unknown, 'noProgress');
					continue;
				}
				const wait = Math.max(this.pausedUntil, this.nextStartAt) - now;
				if (wait > 0) {
					await sleep(wait);
					continue;
				}
				if (this.inFlight >= job.settings.maxConcurrent) {
					await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
					continue;
				}
				this.queue.shift();
				this.nextStartAt = now + this.intervalFor(job);
				this.inFlight++;
				void this.execute(job);
			}
		} finally {
			this.pumping = false;
		}
	}

	private intervalFor(job: Job): number {
		const limits = [job.settings.maxRequestsPerSecond, this.rate.current].filter((r): r is number => r !== undefined);
		return limits.length ? 1000 / Math.min(...limits) : 0;
	}

	private async execute(job: Job): Promise<void> {
		job.attempts++;
		job.startedInEpoch = this.pauseEpoch;
		try {
			// The request carries its own timeout (transport.ts), so a hung endpoint frees its slot.
			const value = await job.send();
			this.lastProgressAt = this.now();
			this.lastSuccessAt = this.lastProgressAt;
			this.slowDownsSinceSuccess = 0;
			this.rate.onSuccess(this.lastProgressAt);
			this.settle(job, () => job.resolve(value));
		} catch (error) {
			this.onFailure(job, error);
		} finally {
			this.lastActivityAt = this.now();
			this.inFlight--;
			this.slotWaiters.splice(0).forEach((wake) => wake());
		}
	}

	private onFailure(job: Job, error: unknown): void {
		if (job.settled) return;
		const failure = readHttpFailure(error);
		const now = this.now();
		if (isSlowDown(failure)) return this.onSlowDown(job, error, failure, now);
		if (isAuthRejection(failure, error) && job.authResends < AUTH_RESEND.maxResends) {
			job.authResends++;
			const delay = backoffMs(job.authResends, AUTH_RESEND.baseDelayMs, AUTH_RESEND.maxBackoffMs);
			if (now + delay - job.enqueuedAt > job.settings.maxWaitMs) return this.giveUp(job, error, 'notRetryable');
			// Outside the queue, like a transient failure: another process's token needs a moment to be stored.
			void sleep(delay).then(() => this.requeue(job));
			return;
		}
		if (isRetryable(failure, job.method) && job.transientFailures + 1 < TRANSIENT_RETRY.maxAttempts) {
			job.transientFailures++;
			const delay = Math.max(
				retryAfterMs(failure.headers, now) ?? 0,
				backoffMs(job.transientFailures, TRANSIENT_RETRY.baseDelayMs, TRANSIENT_RETRY.maxBackoffMs),
			);
			if (now + delay - job.enqueuedAt > job.settings.maxWaitMs) return this.giveUp(job, error, 'waitedTooLong');
			// The wait happens outside the queue: a failing request does not hold a slot others could use.
			void sleep(delay).then(() => this.requeue(job));
			return;
		}
		this.giveUp(job, error, isRetryable(failure, job.method) ? 'attemptsUsed' : 'notRetryable');
	}

	private onSlowDown(job: Job, error: unknown, failure: HttpFailure, now: number): void {
		job.rateLimited++;
		const asked = retryAfterMs(failure.headers, now);
		job.askedPauseMs = asked;
		this.lastSlowDown = error;
		const { noProgressLimitMs, maxWaitMs } = job.settings;
		// A pause longer than the limits is not waited for, and does not hold up requests that come later.
		if (asked !== undefined && (asked > noProgressLimitMs || asked > maxWaitMs)) return this.giveUp(job, error, 'pauseTooLong');
		if (job.startedInEpoch === this.pauseEpoch) {
			// News: sent after the queue last reacted, so the pace is still too high.
			this.slowDownsSinceSuccess++;
			// The backoff grows only while nothing gets through. A queue that succeeded moments ago shares the
			// quota with others (queue-mode workers): doubling its pause on each refusal would hand its share to
			// whichever queue happens to be fastest, which then refuses it again.
			const step = now - this.lastSuccessAt < SHARED_QUOTA_WINDOW_MS ? 1 : this.slowDownsSinceSuccess;
			const pause = asked ?? backoffMs(step, RATE_LIMIT_BACKOFF.baseDelayMs, RATE_LIMIT_BACKOFF.maxBackoffMs, this.random);
			this.pauseEpoch++;
			this.pausedUntil = Math.max(this.pausedUntil, now + pause);
			this.rate.onSlowDown(now, pause);
		} else if (asked !== undefined) {
			this.pausedUntil = Math.max(this.pausedUntil, now + asked);
		}
		if (this.pausedUntil - this.lastProgressAt > noProgressLimitMs) return this.giveUp(job, error, 'noProgress');
		if (this.pausedUntil - job.enqueuedAt > maxWaitMs) return this.giveUp(job, error, 'waitedTooLong');
		this.requeue(job);
	}

	/** Back to the front: it has waited longest. */
	private requeue(job: Job): void {
		if (job.settled) return;
		this.queue.unshift(job);
		void this.pump();
	}

	private noProgressFor(job: Job, now: number): boolean {
		return this.slowDownsSinceSuccess > 0 && now - this.lastProgressAt > job.settings.noProgressLimitMs;
	}

	private cancel(job: Job): void {
		const index = this.queue.indexOf(job);
		if (index >= 0) this.queue.splice(index, 1);
		// A request already on the wire is left to finish; its answer is then ignored.
		this.giveUp(job, cancelledError(), 'cancelled');
	}

	private giveUp(job: Job, error: unknown, reason: GiveUpReason): void {
		const failure = readHttpFailure(error);
		const tagged = withOutcome(error, {
			attempts: job.attempts,
			reason,
			waitedMs: this.now() - job.enqueuedAt,
			rateLimited: job.rateLimited,
			outcomeUnknown: reason !== 'cancelled' && mayHaveBeenProcessed(failure, job.method),
			noProgressLimitMs: job.settings.noProgressLimitMs,
			maxWaitMs: job.settings.maxWaitMs,
			askedPauseMs: job.askedPauseMs,
		});
		this.settle(job, () => job.reject(tagged));
	}

	private settle(job: Job, finish: () => void): void {
		if (job.settled) return;
		job.settled = true;
		finish();
	}
}

function cancelledError(): Error {
	return new Error('The execution was cancelled while the request waited in the queue');
}
