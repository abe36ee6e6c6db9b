/**
 * The request rate a credential's queue keeps, learned from the service's 429s (the contract documents no
 * limit, and real services differ: token buckets, fixed windows, per-minute quotas).
 *
 * Until the first 429 there is no pacing, only a window of requests in flight that opens from 2 to the
 * concurrency bound as answers come (INITIAL_WINDOW). On a 429 the rate becomes what
 * actually got through since the previous one: the successes, over the time they took plus the pause the
 * service asks for. For a token bucket with burst ≈ rate × pause that is its refill rate, so pausing and then
 * sending at (a little under) that rate wastes almost none of the service's budget. The first 429 may come while
 * work arrives slowly (Create sends a batch while it reads the next), when few successes over a long time say
 * little: then the pace starts no lower than one request per pause asked for. Each success then raises the
 * rate a little, so the queue probes upwards slowly and meets the next 429 only now and then (GROWTH_PER_SECOND),
 * and faster the longer no 429 comes while work waits for the pace (GROWTH_DOUBLING_MS).
 *
 * In n8n's queue mode several processes share the credential's quota, each with its own queue and none seeing
 * the others: they share it as TCP flows share a link. A 429 is what tells a queue that the processes together
 * send too much; it cuts its own rate (to what got through, by at most a fifth, with jitter) and pauses, while
 * the others go on; the queues that meet the limit most often (the largest shares) grow slowest, those that
 * rarely do grow fastest, so the shares even out and the whole quota stays in use (bench: shared-quota). A queue
 * that started late, when the others had emptied the bucket, measures its first pace on a couple of successes
 * (2 req/s where its share is 25): with work waiting it grows out of that within seconds, and takes up the room
 * a neighbour leaves when its work ends as fast.
 */

/**
 * Growth per second of successes just after a 429: slow, so a single queue meets its bucket's edge only every
 * several seconds, not every second.
 */
const GROWTH_PER_SECOND = 1.02;
/**
 * The growth doubles for every this long without a 429 (up to MAX_GROWTH_PER_SECOND) while at least
 * BACKLOG_FOR_FAST_GROWTH requests wait for the pace. The quota may belong to several processes (n8n's
 * queue-mode workers), each pacing itself and none seeing the others: a queue whose share was cut, that started
 * late, or whose neighbours finished their work, must find the room left unused within seconds, not minutes (with
 * 6 s, 2 and 4 processes at 50 req/s ended 1.1–1.3 × the floor: the last one still growing into the room the others
 * had left). A queue that meets the edge often (the largest share meets it most) keeps growing slowly, one that
 * meets it rarely grows fast, so the shares of processes that started together even out.
 */
const GROWTH_DOUBLING_MS = 2_000;
/**
 * The doubling time while fewer requests wait: a queue whose work arrives about as fast as its pace sends it
 * (Create posts a batch while it reads the next) gains nothing from a faster pace, and against a bucket of one
 * request (1 req/s) meets it again after a few requests when growing as fast.
 */
const IDLE_GROWTH_DOUBLING_MS = 6_000;
/** Requests waiting for the pace from which the queue has work for a faster one (see GROWTH_DOUBLING_MS). */
const BACKLOG_FOR_FAST_GROWTH = 10;
const MAX_GROWTH_PER_SECOND = 2;
/**
 * Below this rate, growth is per success as at this rate, not per second: at 1 req/s a 3 % step per request would
 * meet the bucket's edge every few requests, and a 429 in ten requests is a tenth of them (Create at 1 req/s met it
 * once more in 10 POSTs with a basis of 2). The basis halves every IDLE_GROWTH_DOUBLING_MS without a 429: a slow
 * queue that has met no 429 for a while is most likely a small share of a quota others use (4 workers on 10 req/s send 2.5 each),
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
/**
 * Until the first 429, requests in flight at once to begin with; each success opens one more (the window doubles
 * with each window's worth answered), up to the node's Max Concurrent Requests. Several processes that start on
 * one quota together (n8n's queue-mode workers) would otherwise each send their whole concurrency into the one
 * bucket at once: 4 × 32 requests against a bucket of 10 are 118 429s before any process knows its share. A
 * process alone pays a few round trips (2 → 32 in 4).
 */
const INITIAL_WINDOW = 2;

export class AdaptiveRate {
	private rate: number | undefined;
	private startWindow = INITIAL_WINDOW;
	private cycleStart: number;
	private cycleSuccesses = 0;
	/** When the cycle's first success was answered. */
	private firstSuccessAt: number | undefined;
	/** True for a cycle that began with new work (not with the end of a pause): see onSlowDown. */
	private freshCycle = true;
	/** Since when no 429 has come (the end of the last pause): how fast the rate grows. */
	private calmSince: number;
	/** How often the growth has doubled since calmSince (GROWTH_DOUBLING_MS), up to the last success. */
	private growthDoublings = 0;
	private lastGrowthAt: number;

	/** `random`: a number in [0, 1), for the margin's jitter (Math.random; tests pass a seeded one). */
	constructor(
		now: number,
		private readonly random: () => number = Math.random,
	) {
		this.cycleStart = now;
		this.calmSince = now;
		this.lastGrowthAt = now;
	}

	/** Requests per second to keep; undefined while the service has never asked to slow down. */
	get current(): number | undefined {
		return this.rate;
	}

	/** Requests in flight at most while the queue starts (see INITIAL_WINDOW); undefined once it keeps a pace. */
	get window(): number | undefined {
		return this.rate === undefined ? this.startWindow : undefined;
	}

	/** The queue was idle and gets work again: what happened before says nothing about this cycle's pace. */
	restartCycle(now: number): void {
		this.cycleStart = now;
		this.cycleSuccesses = 0;
		this.firstSuccessAt = undefined;
		this.freshCycle = true;
	}

	/** `waiting`: requests queued behind this one (see BACKLOG_FOR_FAST_GROWTH). */
	onSuccess(now: number, waiting: number): void {
		this.cycleSuccesses++;
		this.firstSuccessAt ??= now;
		if (this.rate === undefined) {
			this.startWindow++;
			return;
		}
		const calmFor = Math.max(0, now - Math.max(this.calmSince, this.lastGrowthAt));
		this.lastGrowthAt = now;
		this.growthDoublings += calmFor / (waiting >= BACKLOG_FOR_FAST_GROWTH ? GROWTH_DOUBLING_MS : IDLE_GROWTH_DOUBLING_MS);
		const growth = Math.min(MAX_GROWTH_PER_SECOND, (GROWTH_PER_SECOND - 1) * 2 ** this.growthDoublings);
		// The basis halves on the slow clock, backlog or not: a small share growing per second as a large one would
		// meet the edge every few of its requests (4 workers on 10 req/s: 2.5 each).
		const basis = GROWTH_BASIS_RATE / 2 ** (Math.max(0, now - this.calmSince) / IDLE_GROWTH_DOUBLING_MS);
		this.rate *= (1 + growth) ** (1 / Math.max(this.rate, basis));
	}

	/**
	 * The service was down for `lastedMs` until `now` (an outage, outage.ts), not limiting: that time says nothing
	 * about its pace. The clocks move on by it, so the next 429 measures the rate over the time the service
	 * answered, and the first success after it is not taken for seconds of calm to grow on.
	 */
	skipOutage(now: number, lastedMs: number): void {
		const moved = (at: number) => Math.min(now, at + lastedMs);
		this.cycleStart = moved(this.cycleStart);
		if (this.firstSuccessAt !== undefined) this.firstSuccessAt = moved(this.firstSuccessAt);
		this.calmSince = moved(this.calmSince);
		this.lastGrowthAt = moved(this.lastGrowthAt);
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
		this.growthDoublings = 0;
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
