/**
 * The request rate a credential's queue keeps, learned from the service's 429s (the contract documents no
 * limit, and real services differ: token buckets, fixed windows, per-minute quotas).
 *
 * Until the first 429 there is no pacing at all (only the concurrency bound). On a 429 the rate becomes what
 * actually got through since the previous one: the successes, over the time they took plus the pause the
 * service asks for. For a token bucket with burst ≈ rate × pause that is its refill rate, so pausing and then
 * sending at (a little under) that rate wastes almost none of the service's budget. The first 429 may come while
 * work arrives slowly (Create sends a batch while it reads the next), when few successes over a long time say
 * little: then the pace starts no lower than one request per pause asked for. Each success then raises the
 * rate a little, so the queue probes upwards slowly and meets the next 429 only now and then (GROWTH_PER_SECOND).
 */

/** Growth per second of successes: slow enough that an emptied bucket is met every ~8 s, not every second. */
const GROWTH_PER_SECOND = 1.03;
/**
 * Below this rate, growth is per success as at this rate, not per second: at 1 req/s a 3 % step per request would
 * meet the bucket's edge every few requests, and a 429 in ten requests is a tenth of them.
 */
const GROWTH_BASIS_RATE = 20;
/** After a 429 the pace starts this much under the estimate: at exactly a bucket's refill rate, a request that leaves a few tens of ms late (the event loop busy reading items) makes the next one early, and a 429. */
const MARGIN_AFTER_SLOWDOWN = 0.95;
/** One 429 never cuts the rate below this share of the current one (a cycle with idle time underestimates). */
const DEEPEST_CUT = 0.5;
/** A floor, so a queue can always move again. */
const MIN_RATE = 0.05;

export class AdaptiveRate {
	private rate: number | undefined;
	private cycleStart: number;
	private cycleSuccesses = 0;
	/** When the cycle's first success was answered. */
	private firstSuccessAt: number | undefined;
	/** True for a cycle that began with new work (not with the end of a pause): see onSlowDown. */
	private freshCycle = true;

	constructor(now: number) {
		this.cycleStart = now;
	}

	/** Requests per second to keep; undefined while the service has never asked to slow down. */
	get current(): number | undefined {
		return this.rate;
	}

	/** The queue was idle and gets work again: what happened before says nothing about this cycle's pace. */
	restartCycle(now: number): void {
		this.cycleStart = now;
		this.cycleSuccesses = 0;
		this.firstSuccessAt = undefined;
		this.freshCycle = true;
	}

	onSuccess(now: number): void {
		this.cycleSuccesses++;
		this.firstSuccessAt ??= now;
		if (this.rate !== undefined) this.rate *= GROWTH_PER_SECOND ** (1 / Math.max(this.rate, GROWTH_BASIS_RATE));
	}

	/** The service refused a request sent since the last pause began; the queue now pauses `pauseMs`. */
	onSlowDown(now: number, pauseMs: number): void {
		// A cycle that began with new work counts from the service's first answer, not from when the queue got
		// the work: for a declarative operation n8n's RoutingNode builds every item's request before the first one
		// leaves the process, and that time says nothing about the service's pace. After a pause the queue sends at once.
		const start = this.freshCycle ? Math.max(this.cycleStart, this.firstSuccessAt ?? this.cycleStart) : this.cycleStart;
		const seconds = Math.max(0.001, (now - start + pauseMs) / 1000);
		const successes = this.cycleSuccesses;
		this.cycleStart = now + pauseMs;
		this.cycleSuccesses = 0;
		this.firstSuccessAt = undefined;
		this.freshCycle = false;
		// Refused again before anything got through: the pause (which doubles) is the answer, not a rate of 0.
		if (successes === 0 && this.rate === undefined) return;
		let estimate = successes / seconds;
		// A first pace no lower than one request per pause; a pause under a second ("Retry-After: 0") sets no floor.
		if (this.rate !== undefined) estimate = Math.max(estimate, this.rate * DEEPEST_CUT);
		else if (pauseMs >= 1_000) estimate = Math.max(estimate, 1000 / pauseMs);
		this.rate = Math.max(MIN_RATE, estimate * MARGIN_AFTER_SLOWDOWN);
	}
}
