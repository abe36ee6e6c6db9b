/**
 * One queue per credential (base URL + client id) for the whole n8n process, shared by every execution.
 *
 * Why: n8n starts every input item's request at once, and a real service has a rate limit it does not
 * document. Retrying each request on its own sends the retries back in waves that the limit cuts down again,
 * until their attempts run out (600 updates at 20 req/s lost 428 items that way). Here:
 * - at most `maxConcurrent` requests are in flight (per the node's Request Options);
 * - a 429 pauses the WHOLE queue for the time the service asks (or a backoff when it does not say, as always in
 *   n8n 1.x), then the queue resumes at the rate that actually got through and speeds up again as requests
 *   succeed (adaptiveRate.ts); the refused request goes back to the front;
 * - an outage (a 5xx, a broken, timed-out or refused connection, once the service has answered this queue) is
 *   not a rate limit: the queue holds for the Retry-After (or a short backoff), probes with one request at a
 *   time, and at the service's first answer goes on at the pace it had before (outage.ts); the requests that
 *   were in flight when it began go back to the front when it is safe to send them again;
 * - requests a person is waiting for (`interactive`: the trigger's activation, the editor's list searches) have
 *   their own lane: they are sent before any queued bulk request and have slots of their own, so a running
 *   Update's queue cannot make an activation time out; they still wait out a pause the service asked for, and
 *   keep the pace;
 * - a 429 is not a failed attempt: a request is given up only when the credential has had no success for
 *   `noProgressLimitMs`, or the request has waited `maxWaitMs` in all (queued, paused and repeated: a request
 *   that would only start after that is given up unsent), or the service asks for a longer pause than either
 *   allows;
 * - a 401 that outlived n8n's own token refresh is sent again a few times after a pause (another n8n process may
 *   have replaced the token: retryRules.ts);
 * - transient failures (5xx, broken connections) of requests that are safe to repeat are retried a few times
 *   with backoff, without holding a slot; a POST is never repeated unless the service said it did not process it;
 * - every request carries a timeout (set by apiRequest in index.ts, from the node's Request Options), so a hung endpoint cannot hold a slot for ever;
 * - a caller that stops (a runner after a row failed: `withdrawal`) takes its requests out of the queue, but its
 *   writes already on the wire are waited for: the service may carry them out, and the caller must say so.
 */
import { sleep } from 'n8n-workflow';

import { readHttpFailure, type HttpFailure } from '../httpFailure';
import { AdaptiveRate } from './adaptiveRate';
import { CancelWatch } from './cancelWatch';
import { Outage, type OutagePart } from './outage';
import { cancelledError, notSentError, withdrawnError } from './queueErrors';
import { withOutcome, type GiveUpReason } from './outcome';
import {
	attemptMayHaveRun,
	AUTH_RESEND,
	backoffMs,
	isAuthRejection,
	isComeBackLater,
	isIdempotent,
	isOutageSignal,
	isRetryable,
	isSlowDown,
	mayHaveBeenProcessed,
	RATE_LIMIT_BACKOFF,
	retryAfterMs,
	TRANSIENT_RETRY,
} from './retryRules';
import type { RequestSettings } from './settings';

/** A queue with nothing to do for this long starts afresh (see `run`). */
const IDLE_RESET_MS = 5_000;
/** A 429 this soon after a success is the quota being shared, not the service refusing everything (onSlowDown). */
const SHARED_QUOTA_WINDOW_MS = 5_000;

/**
 * Interactive requests in flight at once, besides the bulk ones (Max Concurrent Requests). A person waits for one
 * or two at a time (a list search reads its pages one after another); a few more cover several editors.
 */
const INTERACTIVE_SLOTS = 4;

export interface ScheduledRequest<T> {
	method: string;
	send: () => Promise<T>;
	settings: RequestSettings;
	/**
	 * The execution's cancel signal: when one aborts, the request leaves the queue at once if it has not been sent,
	 * and one on the wire is given up (a write then with its outcome unknown: n8n stops the execution now).
	 */
	signals?: ReadonlyArray<AbortSignal | undefined>;
	/**
	 * The caller's own stop (a runner stopping after a row failed): the request leaves the queue if it has not been
	 * sent; a write already on the wire is waited for and its answer delivered (it may have been carried out, and
	 * the caller must name it), but it is not sent again; a read on the wire is given up.
	 */
	withdrawal?: AbortSignal;
	/** A person is waiting for it (see the file comment): sent before queued bulk requests. */
	interactive?: boolean;
}

interface Job {
	method: string;
	send: () => Promise<unknown>;
	settings: RequestSettings;
	/** Every signal watched: the execution's and the caller's withdrawal. */
	signals: AbortSignal[];
	withdrawal?: AbortSignal;
	/** Withdrawn while on the wire: its answer is awaited, and whatever it says, it is not sent again. */
	withdrawn?: boolean;
	interactive: boolean;
	enqueuedAt: number;
	startedInEpoch: number;
	/** When its last attempt was sent. */
	sentAt: number;
	attempts: number;
	/** On the wire now (sent, no answer yet). */
	sending?: boolean;
	transientFailures: number;
	authResends: number;
	rateLimited: number;
	askedPauseMs?: number;
	/** The answer that sent it back to the queue (429, 401, 5xx), for the error if it is given up there. */
	lastError?: unknown;
	/**
	 * A write one of whose attempts may have been carried out (its answer lost, or a 5xx): whatever later attempts
	 * answer, its outcome is unknown if it is given up (an earlier DELETE may be why the repeat is refused).
	 */
	mayHaveRun?: boolean;
	resolve: (value: unknown) => void;
	reject: (error: unknown) => void;
	settled: boolean;
}

type Lane = 'interactive' | 'bulk';

export class RequestScheduler {
	/** Interactive requests go first (see the file comment); each lane is first come, first served. */
	private readonly queues: Record<Lane, Job[]> = { interactive: [], bulk: [] };
	private readonly inFlight: Record<Lane, number> = { interactive: 0, bulk: 0 };
	private readonly cancelWatch = new CancelWatch<Job>((job) => this.cancel(job));
	private pumping = false;
	private slotWaiters: Array<() => void> = [];
	private nextStartAt = 0;
	private pausedUntil = 0;
	/** Counts the queue's pauses; a 429 to a request sent before the latest one is not news. */
	private pauseEpoch = 0;
	private slowDownsSinceSuccess = 0;
	private lastSlowDown?: unknown;
	private readonly outage: Outage;
	/** The last outage signal, for the requests given up while nothing succeeds. */
	private lastOutageError?: unknown;
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
		this.outage = new Outage(random);
	}

	/** The pace the queue keeps now (req/s), undefined when unpaced; for tests and the bench. */
	get currentRate(): number | undefined {
		return this.rate.current;
	}

	async run<T>(request: ScheduledRequest<T>): Promise<T> {
		return await new Promise<T>((resolve, reject) => {
			const now = this.now();
			if (this.isIdle() && now - this.lastActivityAt > IDLE_RESET_MS) {
				// Idle for a while: the "no success for …" clock and the rate's cycle start with this work. (A
				// paginator's pages come one at a time, so a queue that is empty for a moment is not idle.)
				this.lastProgressAt = now;
				this.rate.restartCycle(now);
			}
			const signals = [...(request.signals ?? []), request.withdrawal].filter((signal): signal is AbortSignal => signal !== undefined);
			const job: Job = {
				method: request.method.toUpperCase(),
				send: request.send,
				settings: request.settings,
				signals,
				withdrawal: request.withdrawal,
				interactive: request.interactive === true,
				enqueuedAt: now,
				startedInEpoch: 0,
				sentAt: now,
				attempts: 0,
				transientFailures: 0,
				authResends: 0,
				rateLimited: 0,
				resolve: resolve as (value: unknown) => void,
				reject,
				settled: false,
			};
			if (signals.some((signal) => signal.aborted)) return this.giveUp(job, withdrawnOrCancelled(job), withdrawnOrCancelledReason(job));
			if (this.pausedUntil - now > job.settings.maxWaitMs) {
				// The service's pause outlasts what this request may wait: say so now, not when the pause ends.
				return this.giveUp(job, notSentError(job, now, this.pausedUntil), 'waitedTooLong');
			}
			signals.forEach((signal) => this.cancelWatch.watch(signal, job));
			this.queues[laneOf(job)].push(job);
			// The pump may be waiting for a bulk slot: an interactive request does not need one.
			if (job.interactive) this.wakeSlotWaiters();
			void this.pump();
		});
	}

	private isIdle(): boolean {
		return this.queues.interactive.length + this.queues.bulk.length + this.inFlight.interactive + this.inFlight.bulk === 0;
	}

	private nextJob(): Job | undefined {
		return this.queues.interactive[0] ?? this.queues.bulk[0];
	}

	private takeOut(job: Job): void {
		const queue = this.queues[laneOf(job)];
		const index = queue.indexOf(job);
		if (index >= 0) queue.splice(index, 1);
	}

	private hasSlotFor(job: Job): boolean {
		// During an outage one probe at a time, in either lane: a service still down sees one request per pause.
		if (this.outage.active) return this.inFlight.interactive + this.inFlight.bulk === 0;
		if (job.interactive) return this.inFlight.interactive < INTERACTIVE_SLOTS;
		return this.inFlight.bulk < Math.min(job.settings.maxConcurrent, this.rate.window ?? Number.POSITIVE_INFINITY);
	}

	private wakeSlotWaiters(): void {
		this.slotWaiters.splice(0).forEach((wake) => wake());
	}

	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			for (let job = this.nextJob(); job !== undefined; job = this.nextJob()) {
				const now = this.now();
				if (this.noProgressFor(job, now)) {
					this.takeOut(job);
					this.giveUpForNoProgress(job);
					continue;
				}
				// Interactive requests too wait out the service's pause and keep the pace: sending them into a
				// refusal would only pause everyone longer.
				const startAt = Math.max(this.pausedUntil, this.nextStartAt, this.outage.holdUntil, now);
				if (startAt - job.enqueuedAt > job.settings.maxWaitMs) {
					// Its time is up before it could be sent (or sent again): nothing more goes out for it.
					this.takeOut(job);
					this.giveUp(job, job.lastError ?? notSentError(job, now, startAt), 'waitedTooLong');
					continue;
				}
				if (startAt > now) {
					await sleep(startAt - now);
					continue;
				}
				if (!this.hasSlotFor(job)) {
					await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
					continue;
				}
				this.takeOut(job);
				// An interactive request takes the bulk queue's turn: the bulk's own ceiling (Max Requests per
				// Second) still holds for the service.
				const waitingBulk = job.interactive ? this.queues.bulk[0] : undefined;
				this.nextStartAt = now + Math.max(this.intervalFor(job), waitingBulk ? this.intervalFor(waitingBulk) : 0);
				this.inFlight[laneOf(job)]++;
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
		job.sentAt = this.now();
		job.sending = true;
		let failed = false;
		try {
			// The request carries its own timeout (apiRequest in index.ts), so a hung endpoint frees its slot.
			const value = await job.send();
			this.lastProgressAt = this.now();
			this.lastSuccessAt = this.lastProgressAt;
			this.slowDownsSinceSuccess = 0;
			this.onAnswer(this.lastProgressAt);
			this.rate.onSuccess(this.lastProgressAt, this.queues.bulk.length);
			this.settle(job, () => job.resolve(value));
		} catch (error) {
			failed = true;
			this.onFailure(job, error);
		} finally {
			job.sending = false;
			this.lastActivityAt = this.now();
			this.inFlight[laneOf(job)]--;
			// After a failure the slot is handed on a turn later, once the caller has heard of it: a runner that stops on
			// it withdraws its queued requests first, rather than one more write leaving after the failure.
			if (failed) void sleep(0).then(() => this.wakeSlotWaiters());
			else this.wakeSlotWaiters();
		}
	}

	private onFailure(job: Job, error: unknown): void {
		if (job.settled) return;
		job.lastError = error;
		const failure = readHttpFailure(error);
		if (!READ_METHODS.has(job.method) && attemptMayHaveRun(failure)) job.mayHaveRun = true;
		const now = this.now();
		const comeBackLater = isComeBackLater(failure);
		let probe = false;
		if (isOutageSignal(failure) && (this.lastSuccessAt > Number.NEGATIVE_INFINITY || comeBackLater)) {
			// A service that answered this queue before, or says when to come back, is out: a wrong Base URL, or a
			// proxy that answers 502 to everything, fails as before instead of being probed until Give Up After No
			// Success For.
			const part = this.onOutageSignal(job, error, failure, now);
			if (part === 'caught') return;
			probe = part === 'probe';
		} else if (failure.status !== undefined) {
			// Any other answer (a 4xx, a 429) says the service is up again.
			this.onAnswer(now);
		}
		// A slow-down still sets the queue's pace; `requeue` then gives a withdrawn request up.
		if (isSlowDown(failure)) return this.onSlowDown(job, error, failure, now);
		// Withdrawn while on the wire: this answer is the one the caller waited for; nothing is sent again.
		if (job.withdrawn) return this.giveUp(job, error, isRetryable(failure, job.method) || isAuthRejection(failure, error) ? 'withdrawn' : 'notRetryable');
		if (isAuthRejection(failure, error) && job.authResends < AUTH_RESEND.maxResends) {
			job.authResends++;
			const delay = backoffMs(job.authResends, AUTH_RESEND.baseDelayMs, AUTH_RESEND.maxBackoffMs);
			if (now + delay - job.enqueuedAt > job.settings.maxWaitMs) return this.giveUp(job, error, 'notRetryable');
			// Outside the queue, like a transient failure: another process's token needs a moment to be stored.
			void sleep(delay).then(() => this.requeue(job));
			return;
		}
		// A probe's failure is the outage's whatever its status (a 500 too), when the request is safe to send again.
		const retryable = isRetryable(failure, job.method) || (probe && !mayHaveBeenProcessed(failure, job.method));
		// "Come back later" (a 503 with Retry-After) is not a failed attempt, as a 429 is not: the service said when.
		if (retryable && (comeBackLater || job.transientFailures + 1 < TRANSIENT_RETRY.maxAttempts)) {
			if (comeBackLater) {
				job.rateLimited++;
				if (this.pauseTooLong(job, retryAfterMs(failure.headers, now))) return this.giveUp(job, error, 'pauseTooLong');
			} else job.transientFailures++;
			if (this.outage.active) {
				// The first signal or a failed probe: the outage's hold spaces the next probe, which is the next
				// request in line. Probes take turns, so an outage longer than a few probes does not use up one
				// request's attempts, while a request that fails alone still has only its 4.
				if (this.outage.holdUntil - job.enqueuedAt > job.settings.maxWaitMs) return this.giveUp(job, error, 'waitedTooLong');
				return this.requeue(job, 'last');
			}
			const delay = Math.max(
				retryAfterMs(failure.headers, now) ?? 0,
				backoffMs(job.transientFailures, TRANSIENT_RETRY.baseDelayMs, TRANSIENT_RETRY.maxBackoffMs),
			);
			if (now + delay - job.enqueuedAt > job.settings.maxWaitMs) return this.giveUp(job, error, 'waitedTooLong');
			// The wait happens outside the queue: a failing request does not hold a slot others could use.
			void sleep(delay).then(() => this.requeue(job));
			return;
		}
		this.giveUp(job, error, retryable ? 'attemptsUsed' : 'notRetryable');
	}

	/**
	 * An outage signal (outage.ts): which part of the outage the request was. A 'caught' one is sent again here,
	 * uncounted, when safe to. Otherwise onFailure judges it: the 'first' signal by the usual rules (the service may
	 * have failed this request alone), a 'probe' as the outage's when safe to repeat.
	 */
	private onOutageSignal(job: Job, error: unknown, failure: HttpFailure, now: number): OutagePart {
		const asked = retryAfterMs(failure.headers, now);
		const tooLong = this.pauseTooLong(job, asked);
		// A pause longer than the limits is not waited for, and does not hold up the requests that come later.
		const part = this.outage.onSignal(now, job.sentAt, tooLong ? undefined : asked);
		this.lastOutageError = error;
		if (part !== 'caught') return part;
		// A write that may have been carried out is judged as its own failure (never repeated).
		if (mayHaveBeenProcessed(failure, job.method)) return 'first';
		if (tooLong) this.giveUp(job, error, 'pauseTooLong');
		else if (this.outage.holdUntil - job.enqueuedAt > job.settings.maxWaitMs) this.giveUp(job, error, 'waitedTooLong');
		else this.requeue(job);
		return 'caught';
	}

	/** The service answered at `now` (anything but an outage signal): an outage ends, the pace as it was before. */
	private onAnswer(now: number): void {
		const lasted = this.outage.onAnswer(now);
		if (lasted === undefined) return;
		this.rate.skipOutage(now, lasted);
		this.wakeSlotWaiters();
	}

	/** A pause asked for (Retry-After) that outlasts the limits is not waited for (noted for the message). */
	private pauseTooLong(job: Job, askedMs: number | undefined): boolean {
		if (askedMs === undefined) return false;
		job.askedPauseMs = askedMs;
		return askedMs > job.settings.noProgressLimitMs || askedMs > job.settings.maxWaitMs;
	}

	private giveUpForNoProgress(job: Job): void {
		if (this.slowDownsSinceSuccess > 0) return this.giveUp(job, Object.create(this.lastSlowDown as object) as unknown, 'noProgress');
		// An outage: the request's own last failure (one safe to send again), or, never sent, the outage's.
		if (job.lastError !== undefined) return this.giveUp(job, job.lastError, 'noProgress');
		this.giveUp(job, Object.create(this.lastOutageError as object) as unknown, 'noProgress', false);
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

	/** Back to the front of its lane, as it has waited longest (or to its end: a probe that failed, see onFailure). */
	private requeue(job: Job, place: 'first' | 'last' = 'first'): void {
		if (job.settled) return;
		if (job.withdrawn) return this.giveUp(job, job.lastError ?? withdrawnError(), 'withdrawn');
		if (place === 'first') this.queues[laneOf(job)].unshift(job);
		else this.queues[laneOf(job)].push(job);
		if (job.interactive) this.wakeSlotWaiters();
		void this.pump();
	}

	private noProgressFor(job: Job, now: number): boolean {
		return (this.slowDownsSinceSuccess > 0 || this.outage.active) && now - this.lastProgressAt > job.settings.noProgressLimitMs;
	}

	/** One of the job's signals aborted: the execution's cancellation, or the caller's withdrawal (ScheduledRequest). */
	private cancel(job: Job): void {
		const executionCancelled = job.signals.some((signal) => signal !== job.withdrawal && signal.aborted);
		if (!executionCancelled && job.sending && !READ_METHODS.has(job.method)) {
			// A write on the wire is waited for: its answer says whether it was carried out, which the caller names.
			job.withdrawn = true;
			return;
		}
		this.takeOut(job);
		// On the execution's cancellation a request already on the wire is left to finish and its answer ignored: a
		// write among them may have been carried out, and must say so rather than "nothing was sent".
		if (job.sending) {
			// Its answer is ignored: a write on the wire may have been carried out, idempotent or not.
			if (!READ_METHODS.has(job.method)) job.mayHaveRun = true;
			this.giveUp(job, new Error('The execution was cancelled after the request was sent'), 'cancelled', !isIdempotent(job.method));
		}
		else {
			// Withdrawn while it waited to be sent again: the answer that sent it back is what the caller learns.
			const reason = withdrawnOrCancelledReason(job);
			this.giveUp(job, reason === 'withdrawn' && job.lastError !== undefined ? job.lastError : withdrawnOrCancelled(job), reason, false);
		}
	}

	/** `outcomeUnknown`: when not given, judged from the failure (a request not sent has none, and is not unknown). */
	private giveUp(job: Job, error: unknown, reason: GiveUpReason, outcomeUnknown?: boolean): void {
		const failure = readHttpFailure(error);
		const tagged = withOutcome(error, {
			attempts: job.attempts,
			reason,
			waitedMs: this.now() - job.enqueuedAt,
			rateLimited: job.rateLimited,
			outcomeUnknown: (outcomeUnknown ?? (job.attempts > 0 && mayHaveBeenProcessed(failure, job.method))) || job.mayHaveRun === true,
			noProgressLimitMs: job.settings.noProgressLimitMs,
			maxWaitMs: job.settings.maxWaitMs,
			timeoutMs: job.settings.timeoutMs,
			askedPauseMs: job.askedPauseMs,
		});
		this.settle(job, () => job.reject(tagged));
	}

	private settle(job: Job, finish: () => void): void {
		if (job.settled) return;
		job.settled = true;
		// Nothing keeps a settled request (and its body) alive: not the signals, not the error kept for later.
		job.signals.forEach((signal) => this.cancelWatch.forget(signal, job));
		job.lastError = undefined;
		finish();
	}
}

/** Requests that change nothing: given up at once when withdrawn, even on the wire (their answer is not needed). */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function laneOf(job: Job): Lane {
	return job.interactive ? 'interactive' : 'bulk';
}

/** A request that leaves before it is sent (again): the execution was cancelled, or only the caller withdrew it. */
function withdrawnOrCancelledReason(job: Job): GiveUpReason {
	return job.signals.some((signal) => signal !== job.withdrawal && signal.aborted) ? 'cancelled' : 'withdrawn';
}

function withdrawnOrCancelled(job: Job): Error {
	return withdrawnOrCancelledReason(job) === 'cancelled' ? cancelledError() : withdrawnError();
}
