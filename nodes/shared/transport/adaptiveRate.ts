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
 * rate a little, so the queue probes upwards slowly and meets the next 429 only now and then (GROWTH_PER_SECOND),
 * and faster the longer no 429 comes (GROWTH_DOUBLING_MS).
 *
 * In n8n's queue mode several processes share the credential's quota, each with its own queue and none seeing
 * the others: they share it as TCP flows share a link. A 429 is what tells a queue that the processes together
 * send too much; it cuts its own rate (to what got through, by at most a fifth, with jitter) and pauses, while
 * the others go on; the queues that meet the limit most often (the largest shares) grow slowest, those that
 * rarely do grow fastest, so the shares even out and the whole quota stays in use (bench: shared-quota).
 */

/**
 * Growth per second of successes just after a 429: slow, so a single queue meets its bucket's edge only every
 * several seconds, not every second.
 */
const GROWTH_PER_SECOND = 1.02;
/**
 * The growth doubles for every this long without a 429 (up to MAX_GROWTH_PER_SECOND). The quota may belong to
 * several processes (n8n's queue-mode workers), each pacing itself and none seeing the others: a queue whose
 * share was cut, or whose neighbours finished their work, must find the room it left unused within seconds,
 * not minutes. A queue that meets the edge often (the largest share meets it most) keeps growing slowly, one
 * that meets it rarely grows fast, so the shares of processes that started together even out.
 */
const GROWTH_DOUBLING_MS = 6_000;
const MAX_GROWTH_PER_SECOND = 2;
/**
 * Below this rate, growth is per success as at this rate, not per second: at 1 req/s a 3 % step per request would
 * meet the bucket's edge every few requests, and a 429 in ten requests is a tenth of them (Create at 1 req/s met it
 * once more in 10 POSTs with a basis of 2). The basis halves with each doubling of the growth: a slow queue that has
 * met no 429 for a while is most likely a small share of a quota others use (4 workers on 10 req/s send 2.5 each),
 * and must be able to grow back within tens of seconds.
 */
const GROWTH_BASIS_RATE = 20;
/** After a 429 the pace starts this much under the estimate: at exactly a bucket's refill rate, a request that leaves a few tens of ms late (the event loop busy reading items) makes the next one early, and a 429. */
const MARGIN_AFTER_SLOWDOWN = 0.95;
/**
 * The margin is drawn from ± this around MARGIN_AFTER_SLOWDOWN: processes that met the same empty bucket at the
 * same moment then leave it at different paces and meet its edge at different times, not all together again.
 */
const MARGIN_JITTER = 0.03;
/**
 * One 429 never cuts the rate below this share of the current one: a cycle with idle time underestimates, and
 * in a shared quota a queue's successes over a cycle that ended in a burst of growth say less than its rate.
 */
const DEEPEST_CUT = 0.8;
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
	/** Since when no 429 has come (the end of the last pause): how fast the rate grows. */
	private calmSince: number;

	/** `random`: a number in [0, 1), for the margin's jitter (Math.random; tests pass a seeded one). */
	constructor(
		now: number,
		private readonly random: () => number = Math.random,
	) {
		this.cycleStart = now;
		this.calmSince = now;
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
		if (this.rate === undefined) return;
		const doublings = Math.max(0, now - this.calmSince) / GROWTH_DOUBLING_MS;
		const growth = Math.min(MAX_GROWTH_PER_SECOND, (GROWTH_PER_SECOND - 1) * 2 ** doublings);
		this.rate *= (1 + growth) ** (1 / Math.max(this.rate, GROWTH_BASIS_RATE / 2 ** doublings));
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
		this.calmSince = now + pauseMs;
		// Refused again before anything got through: the pause (which doubles) is the answer, not a rate of 0.
		if (successes === 0 && this.rate === undefined) return;
		let estimate = successes / seconds;
		// A first pace no lower than one request per pause; a pause under a second ("Retry-After: 0") sets no floor.
		if (this.rate !== undefined) estimate = Math.max(estimate, this.rate * DEEPEST_CUT);
		else if (pauseMs >= 1_000) estimate = Math.max(estimate, 1000 / pauseMs);
		const margin = MARGIN_AFTER_SLOWDOWN + (2 * this.random() - 1) * MARGIN_JITTER;
		this.rate = Math.max(MIN_RATE, estimate * margin);
	}
}
