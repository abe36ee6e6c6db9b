/**
 * An outage of the service, as one credential's queue sees it: a 5xx, a broken or timed-out connection, a
 * refused connection (retryRules.ts `isOutageSignal`), where a 429 is a rate limit (adaptiveRate.ts).
 *
 * Why apart from the rate limit: a service that is down says nothing about how fast it can be sent to once it is
 * back. Learning a pace from an outage (what got through, over the time it took plus the pause) slowed Update of
 * 200 items through a 3 s outage to a fifth of its pace for the rest of the run. So an outage leaves the pace and
 * the window alone and only holds the queue:
 * - from its first signal, nothing new is sent until the pause the service asked for (Retry-After, either form)
 *   has passed, or, when it does not say, a short backoff that doubles with every failed probe;
 * - then one request at a time (a probe), so a service that is still down sees one request per pause, not the
 *   whole concurrency (no storm when it comes back, none while it is down);
 * - the first answer that is not an outage signal (a success, a 4xx, a 429) ends it: the queue goes on at once at
 *   the pace and concurrency it had before.
 */
import { backoffMs } from './retryRules';

/** The hold after an outage signal without Retry-After: 250 ms, doubling with each failed probe, at most 4 s. */
export const OUTAGE_PROBE = { baseDelayMs: 250, maxBackoffMs: 4_000 } as const;

export type OutagePart = 'first' | 'caught' | 'probe';

export class Outage {
	/** When the current outage's first signal came; undefined while the service answers. */
	private since: number | undefined;
	private failedProbes = 0;
	private resumeAt = 0;

	/** `random`: in [0, 1), the backoff's jitter (tests pass a fixed one). */
	constructor(private readonly random: () => number = Math.random) {}

	/** True from an outage signal until the service answers again. */
	get active(): boolean {
		return this.since !== undefined;
	}

	/** Nothing is sent before this (epoch ms; 0 when not held). */
	get holdUntil(): number {
		return this.since === undefined ? 0 : this.resumeAt;
	}

	/**
	 * A request sent at `sentAt` failed with an outage signal at `now`; `askedMs` is its Retry-After, if any.
	 * Returns which part of the outage it was: its 'first' signal; 'caught' in it (sent before it began, failing
	 * once it was known: the outage's failure, not the request's); or a 'probe' sent while it was known.
	 * Only the first signal and failed probes push the hold back: the requests that were in flight when the
	 * outage began fail together, and are not each a new sign that the service is still down (their Retry-After,
	 * when they carry one, is still honoured).
	 */
	onSignal(now: number, sentAt: number, askedMs: number | undefined): OutagePart {
		const part: OutagePart = this.since === undefined ? 'first' : sentAt < this.since ? 'caught' : 'probe';
		let step: number | undefined;
		if (part === 'first') {
			this.since = now;
			this.failedProbes = 0;
			this.resumeAt = 0;
			step = 1;
		} else if (part === 'probe') {
			this.failedProbes++;
			step = this.failedProbes + 1;
		}
		const backoff = step === undefined ? 0 : backoffMs(step, OUTAGE_PROBE.baseDelayMs, OUTAGE_PROBE.maxBackoffMs, this.random);
		this.resumeAt = Math.max(this.resumeAt, now + (askedMs ?? backoff));
		return part;
	}

	/** The service answered (anything but an outage signal). Returns how long the outage lasted, if one ended. */
	onAnswer(now: number): number | undefined {
		if (this.since === undefined) return undefined;
		const lasted = Math.max(0, now - this.since);
		this.since = undefined;
		this.resumeAt = 0;
		return lasted;
	}
}
