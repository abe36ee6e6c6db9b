// The credential's queue (transport/scheduler.ts) on a fake clock: n8n-workflow's `sleep` advances the clock
// instead of waiting, so minutes of rate limiting run in milliseconds and every wait is exact.
import { NodeApiError } from 'n8n-workflow';

import { paceOptions, requestOptionsField } from '../../nodes/ConsignmentVendor/shared/requestOptions';
import { TokenReplacedError } from '../../credentials/sharedAccessToken';
import { toNodeApiError } from '../../nodes/shared/errors';
import { retryOutcomeOf } from '../../nodes/shared/transport/outcome';
import { RequestScheduler } from '../../nodes/shared/transport/scheduler';
import { DEFAULT_REQUEST_SETTINGS, requestSettingsFrom, type RequestSettings } from '../../nodes/shared/transport/settings';
import { connectionError, FAKE_NODE, n8n1ConnectionError, n8n1RequestError, n8nRequestError } from './fakes';

import { clock, inVirtualTime, resetClock } from './virtualClock';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => await jest.requireActual<typeof import('./virtualClock')>('./virtualClock').virtualSleep(ms),
}));

beforeEach(resetClock);

const TOO_MANY = { message: 'Too many requests' };
const settings = (overrides: Partial<RequestSettings> = {}): RequestSettings => ({ ...DEFAULT_REQUEST_SETTINGS, ...overrides });

/** The pace's jitter held at its middle, so every run of a test is the same. */
function newScheduler() {
	return new RequestScheduler(
		() => clock.now,
		() => 0.5,
	);
}

/**
 * A service on the fake clock: a token bucket per client (`rate` per second, `burst`), answering 429 with the
 * given Retry-After (n8n 2.x shows nodes the header) or without one.
 */
function rateLimitedService(rate: number, burst: number, retryAfter: 'seconds' | 'none' = 'seconds') {
	let tokens = burst;
	let refilledAt = clock.now;
	const log = { sent: [] as number[], refused: [] as number[] };
	const send = async () => {
		tokens = Math.min(burst, tokens + ((clock.now - refilledAt) / 1000) * rate);
		refilledAt = clock.now;
		log.sent.push(clock.now);
		if (tokens >= 1) {
			tokens -= 1;
			return 'ok';
		}
		log.refused.push(clock.now);
		const wait = Math.ceil((1 - tokens) / rate);
		throw n8nRequestError(429, TOO_MANY, retryAfter === 'seconds' ? { 'retry-after': String(wait) } : {});
	};
	return { send, log };
}

async function settleAll<T>(promises: Array<Promise<T>>) {
	const results = await Promise.allSettled(promises);
	return {
		ok: results.filter((r) => r.status === 'fulfilled').length,
		failed: results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown),
	};
}

describe('bounded concurrency', () => {
	it('never has more requests in flight than Max Concurrent Requests', async () => {
		const scheduler = newScheduler();
		let inFlight = 0;
		let most = 0;
		const send = async () => {
			most = Math.max(most, ++inFlight);
			await Promise.resolve();
			await Promise.resolve();
			inFlight--;
			return 'ok';
		};
		const { ok } = await settleAll(Array.from({ length: 40 }, () => scheduler.run({ method: 'PATCH', send, settings: settings({ maxConcurrent: 3 }) })));
		expect(ok).toBe(40);
		expect(most).toBe(3);
	});
});

describe('a 429 pauses the whole queue', () => {
	it('nothing is sent until the Retry-After has passed; the refused request is sent again; nothing is lost', async () => {
		const scheduler = newScheduler();
		const sentAt: number[] = [];
		let refused = false;
		const send = async () => {
			sentAt.push(clock.now);
			if (sentAt.length === 3 && !refused) {
				refused = true;
				throw n8nRequestError(429, TOO_MANY, { 'retry-after': '7' });
			}
			return 'ok';
		};
		const start = clock.now;
		const { ok } = await settleAll(Array.from({ length: 10 }, () => scheduler.run({ method: 'PATCH', send, settings: settings({ maxConcurrent: 1 }) })));
		expect(ok).toBe(10);
		expect(sentAt).toHaveLength(11);
		// Sends 1–3 at once; everything after the 429 waits the 7 s the service asked for.
		expect(sentAt.slice(0, 3)).toEqual([start, start, start]);
		expect(Math.min(...sentAt.slice(3))).toBeGreaterThanOrEqual(start + 7_000);
	});

	it('n8n 1.x (no headers on a failed response): pauses 1 s, then 2 s while nothing succeeds', async () => {
		const scheduler = newScheduler();
		const sentAt: number[] = [];
		const send = async () => {
			sentAt.push(clock.now);
			if (sentAt.length <= 2) throw n8n1RequestError(429, TOO_MANY, { 'retry-after': '1' });
			return 'ok';
		};
		const start = clock.now;
		await expect(scheduler.run({ method: 'POST', send, settings: settings() })).resolves.toBe('ok');
		expect(sentAt[1] - start).toBeGreaterThanOrEqual(1_000);
		expect(sentAt[1] - start).toBeLessThan(1_250);
		expect(sentAt[2] - sentAt[1]).toBeGreaterThanOrEqual(2_000);
		expect(sentAt[2] - sentAt[1]).toBeLessThan(2_500);
	});
});

describe('adaptive pace: a token-bucket service, with nothing configured', () => {
	it.each([
		[5, 'seconds'],
		[20, 'seconds'],
		[20, 'none'],
		[100, 'seconds'],
	] as const)('at %s req/s (Retry-After: %s): all succeed, close to the floor, few 429s after the start', async (rate, retryAfter) => {
		const scheduler = newScheduler();
		const service = rateLimitedService(rate, rate, retryAfter);
		const count = rate * 30;
		const start = clock.now;
		const { ok } = await settleAll(Array.from({ length: count }, () => scheduler.run({ method: 'PATCH', send: service.send, settings: settings() })));
		const seconds = (clock.now - start) / 1000;
		const floor = count / rate;
		expect(ok).toBe(count);
		expect(seconds).toBeLessThanOrEqual(floor * 1.2);
		const lateRefusals = service.log.refused.filter((at) => at - start > 2_000).length;
		expect(lateRefusals / service.log.sent.length).toBeLessThanOrEqual(0.05);
	});

	it.each([
		[100, 'none'],
		[100, 'seconds'],
		[20, 'none'],
	] as const)(
		'at %s req/s (Retry-After: %s), when the first request goes out seconds after it was queued (n8n prepares every item first): the pace is learned from the answers, close to the floor',
		async (rate, retryAfter) => {
			// n8n's RoutingNode builds every item's request before the event loop sends the first one, so the
			// queue sees its first request long before the service does (5 s for 2,000 items on a busy machine).
			const { sleep } = jest.requireMock<{ sleep: (ms: number) => Promise<void> }>('n8n-workflow');
			const scheduler = newScheduler();
			const service = rateLimitedService(rate, rate, retryAfter);
			let preparing: Promise<void> | undefined;
			const send = async () => {
				await (preparing ??= sleep(5_000));
				return await service.send();
			};
			const count = rate * 30;
			const start = clock.now;
			const { ok } = await settleAll(Array.from({ length: count }, () => scheduler.run({ method: 'PATCH', send, settings: settings() })));
			const seconds = (clock.now - start - 5_000) / 1000;
			expect(ok).toBe(count);
			expect(seconds).toBeLessThanOrEqual((count / rate) * 1.2);
		},
	);

	it('at 1 req/s (burst 1), with work that arrives a little at a time (Create sends a batch while it reads the next): the pace starts at one request per pause asked for, not at the few successes over the gaps, and no 429 after the start', async () => {
		const { sleep } = jest.requireMock<{ sleep: (ms: number) => Promise<void> }>('n8n-workflow');
		const scheduler = newScheduler();
		const service = rateLimitedService(1, 1);
		const start = clock.now;
		const { ok } = await inVirtualTime(async () => {
			const pending: Array<Promise<unknown>> = [];
			for (let batch = 0; batch < 12; batch++) {
				pending.push(scheduler.run({ method: 'POST', send: service.send, settings: settings() }));
				await sleep(700);
			}
			return await settleAll(pending);
		});
		expect((clock.now - start) / 1000).toBeLessThanOrEqual(12 * 1.2);
		expect(ok).toBe(12);
		expect(scheduler.currentRate).toBeGreaterThan(0.9);
		expect(scheduler.currentRate).toBeLessThanOrEqual(1);
		// The pace probes upwards (the quota may be shared with other workers, whose room it must find), but at this
		// rate slowly enough that a bucket of one request is not met again in these 12 requests.
		expect(service.log.refused.filter((at) => at - start > 2_000).length).toBe(0);
	});

	it('Max Requests per Second: a fixed pace, never faster', async () => {
		const scheduler = newScheduler();
		const sentAt: number[] = [];
		const send = async () => {
			sentAt.push(clock.now);
			return 'ok';
		};
		await settleAll(Array.from({ length: 20 }, () => scheduler.run({ method: 'GET', send, settings: settings({ maxRequestsPerSecond: 4 }) })));
		const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(250);
	});
});

describe('several processes, one quota (n8n queue mode: each worker its own queue, one bucket for the credential)', () => {
	/** A seeded pseudo-random source: the queues' jitter and the requests' latency, the same on every run. */
	function seeded(seed: number) {
		let state = seed;
		return () => {
			state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
			return state / 2_147_483_648;
		};
	}

	/**
	 * `processes` independent queues (each worker its own package instance: they share nothing but the service) on
	 * one bucket of `rate` req/s, each given `total / processes` requests; queue i gets its work `startsAt[i]` ms
	 * after the first. Requests take 2–12 ms to arrive: without that noise, paced queues on one clock lock into
	 * phase and the same one always meets the empty bucket.
	 */
	async function shareOneQuota(processes: number, rate: number, retryAfter: 'seconds' | 'none', total: number, startsAt: number[] = []) {
		const { sleep } = jest.requireMock<{ sleep: (ms: number) => Promise<void> }>('n8n-workflow');
		const service = rateLimitedService(rate, rate, retryAfter);
		const latency = seeded(99);
		const doneAt = Array.from({ length: processes }, () => [] as number[]);
		const start = clock.now;
		const okCounts = await inVirtualTime(
			async () =>
				await Promise.all(
					doneAt.map(async (times, index) => {
						if (startsAt[index]) await sleep(startsAt[index]);
						const scheduler = new RequestScheduler(() => clock.now, seeded(index + 1));
						const send = async () => {
							await sleep(2 + latency() * 10);
							const answer = await service.send();
							times.push(clock.now);
							return answer;
						};
						const { ok } = await settleAll(Array.from({ length: total / processes }, () => scheduler.run({ method: 'PATCH', send, settings: settings() })));
						return ok;
					}),
				),
		);
		return { service, doneAt, okCounts, start };
	}

	it.each([
		[2, 10, 'seconds'],
		[4, 10, 'none'],
		[2, 50, 'none'],
		[4, 50, 'seconds'],
	] as const)(
		'%s independent queues sharing %s req/s (Retry-After: %s), started together: they use the whole quota between them, each a fair part of it, with few 429s',
		async (processes, rate, retryAfter) => {
			const total = rate * 120;
			const { service, doneAt, okCounts, start } = await shareOneQuota(processes, rate, retryAfter, total);
			expect(okCounts).toEqual(doneAt.map(() => total / processes));
			const floorMs = (total / rate) * 1000;
			expect(clock.now - start).toBeLessThanOrEqual(floorMs * 1.2);
			// From 20 s on (the first pace is learned from an unpaced start) until the first queue runs out of work:
			// together they get about the whole limit, and none starved: each at least a quarter of its fair part (the shares wander: no queue can see another's).
			const allBusyUntil = Math.min(...doneAt.map((times) => Math.max(...times)));
			const window = (times: number[]) => times.filter((at) => at - start >= 20_000 && at <= allBusyUntil).length;
			const shares = doneAt.map(window);
			const windowSeconds = (allBusyUntil - start - 20_000) / 1000;
			expect(shares.reduce((sum, n) => sum + n, 0) / windowSeconds).toBeGreaterThan(rate * 0.9);
			expect(Math.min(...shares) / (shares.reduce((sum, n) => sum + n, 0) / processes)).toBeGreaterThan(0.25);
			// The target: refusals, the start included, at most a tenth of the requests.
			expect(service.log.refused.length / service.log.sent.length).toBeLessThanOrEqual(0.1);
		},
	);

	it('4 queues started together on one 10 req/s bucket: the start costs each a few 429s, not its whole concurrency (32 each, 4 × 32 against a bucket of 10)', async () => {
		const { service, start } = await shareOneQuota(4, 10, 'seconds', 400);
		const refusedAtStart = service.log.refused.filter((at) => at - start < 2_000).length;
		expect(refusedAtStart).toBeLessThanOrEqual(4 * 8);
	});

	it.each([100, 300])(
		'2 queues on one 50 req/s bucket, the second given its work %s ms after the first emptied the bucket: its first pace, measured on a few successes, does not stay its share; the 40 s of work end within 1.1 × the floor',
		async (lateBy) => {
			const total = 2_000;
			const { okCounts, start } = await shareOneQuota(2, 50, 'seconds', total, [0, lateBy]);
			expect(okCounts).toEqual([1_000, 1_000]);
			// Learning its pace from a couple of successes (about 2 req/s) and growing a few per cent per second from
			// there, the late queue still had most of its work when the first finished, and ended at 1.15–1.3 × the floor.
			expect(clock.now - start).toBeLessThanOrEqual((total / 50) * 1000 * 1.1);
		},
	);
});

describe('the start: until the first 429 the queue opens its window gradually', () => {
	it('2 requests in flight at first, one more per success (the window doubles each round trip), up to Max Concurrent Requests; nothing lost, no pace', async () => {
		const { sleep } = jest.requireMock<{ sleep: (ms: number) => Promise<void> }>('n8n-workflow');
		const scheduler = newScheduler();
		let inFlight = 0;
		const inFlightAtSend: number[] = [];
		const send = async () => {
			inFlightAtSend.push(++inFlight);
			await sleep(100);
			inFlight--;
			return 'ok';
		};
		const start = clock.now;
		const { ok } = await inVirtualTime(async () => await settleAll(Array.from({ length: 200 }, () => scheduler.run({ method: 'GET', send, settings: settings() }))));
		expect(ok).toBe(200);
		expect(Math.max(...inFlightAtSend.slice(0, 2))).toBe(2);
		expect(Math.max(...inFlightAtSend.slice(0, 6))).toBeLessThanOrEqual(4);
		expect(Math.max(...inFlightAtSend)).toBe(DEFAULT_REQUEST_SETTINGS.maxConcurrent);
		// 2, 4, 8, 16, 32 in flight: four round trips more than sending 32 at once, then 32 at a time.
		expect(clock.now - start).toBeLessThanOrEqual((Math.ceil(200 / 32) + 4) * 100 + 50);
		expect(scheduler.currentRate).toBeUndefined();
	});
});

describe('the retry budget is progress and time, not attempts', () => {
	it('a 429 is not a failed attempt: a request refused 6 times in a row still succeeds', async () => {
		const scheduler = newScheduler();
		let calls = 0;
		const send = async () => {
			if (++calls <= 6) throw n8nRequestError(429, TOO_MANY, { 'retry-after': '1' });
			return 'ok';
		};
		await expect(scheduler.run({ method: 'PATCH', send, settings: settings() })).resolves.toBe('ok');
		expect(calls).toBe(7);
	});

	it('a request refused while others get through is kept, however often: 60 requests at 2 req/s all succeed', async () => {
		const scheduler = newScheduler();
		const service = rateLimitedService(2, 2);
		const { ok } = await settleAll(Array.from({ length: 60 }, () => scheduler.run({ method: 'PATCH', send: service.send, settings: settings() })));
		expect(ok).toBe(60);
		expect(service.log.refused.length).toBeGreaterThan(4);
	});

	it('gives up when nothing succeeded for Give Up After No Success For, and says so', async () => {
		const scheduler = newScheduler();
		const send = async () => {
			throw n8nRequestError(429, TOO_MANY, { 'retry-after': '5' });
		};
		const start = clock.now;
		const { failed } = await settleAll(Array.from({ length: 3 }, () => scheduler.run({ method: 'GET', send, settings: settings({ noProgressLimitMs: 60_000 }) })));
		expect(failed).toHaveLength(3);
		// Given up once the limit has passed (the fake clock adds up concurrent waits, so allow a few pauses).
		expect(clock.now - start).toBeGreaterThanOrEqual(60_000);
		expect(clock.now - start).toBeLessThanOrEqual(90_000);
		expect(retryOutcomeOf(failed[0])).toMatchObject({ reason: 'noProgress', outcomeUnknown: false });
		const error = toNodeApiError(FAKE_NODE, failed[0]) as NodeApiError;
		expect(error.message).toBe('Rate limited by the service — retry after 5 seconds');
		expect(error.description).toMatch(/no request with this credential succeeded for 60 seconds \(Request Options → Give Up After No Success For\)/);
	});

	it('gives up a request that waited longer than Max Wait per Request', async () => {
		const scheduler = newScheduler();
		let call = 0;
		const send = async () => {
			if (++call % 2 === 0) return 'ok';
			throw n8nRequestError(429, TOO_MANY, { 'retry-after': '30' });
		};
		const { failed, ok } = await settleAll(
			Array.from({ length: 40 }, () => scheduler.run({ method: 'GET', send, settings: settings({ maxConcurrent: 1, maxWaitMs: 120_000 }) })),
		);
		expect(ok).toBeGreaterThan(0);
		expect(failed.length).toBeGreaterThan(0);
		expect(retryOutcomeOf(failed[0])).toMatchObject({ reason: 'waitedTooLong' });
		expect((toNodeApiError(FAKE_NODE, failed[0]) as NodeApiError).description).toMatch(/Max Wait per Request allows \(2 minutes\)/);
	});

	it('a Retry-After longer than the limits fails at once, naming the pause', async () => {
		const scheduler = newScheduler();
		const send = async () => {
			throw n8nRequestError(429, TOO_MANY, { 'retry-after': '3600' });
		};
		const start = clock.now;
		const thrown = await scheduler.run({ method: 'GET', send, settings: settings() }).catch((e: unknown) => e);
		expect(clock.now - start).toBe(0);
		expect(retryOutcomeOf(thrown)).toMatchObject({ reason: 'pauseTooLong', attempts: 1 });
		expect((toNodeApiError(FAKE_NODE, thrown) as NodeApiError).description).toMatch(/asked for a pause of 60 minutes/);
	});
});

describe('transient failures', () => {
	it('a GET 503 and a broken connection are repeated with growing waits; the third try answers', async () => {
		const scheduler = newScheduler();
		const failures = [n8nRequestError(503, { error: 'busy' }), connectionError('ECONNRESET', 'socket hang up')];
		const sentAt: number[] = [];
		const send = async () => {
			sentAt.push(clock.now);
			const failure = failures[sentAt.length - 1];
			if (failure) throw failure;
			return 'ok';
		};
		await expect(scheduler.run({ method: 'GET', send, settings: settings() })).resolves.toBe('ok');
		expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(250);
		expect(sentAt[2] - sentAt[1]).toBeGreaterThanOrEqual(500);
	});

	it('a GET that keeps failing with 503: 4 tries, then the error says so', async () => {
		const scheduler = newScheduler();
		let calls = 0;
		const send = async () => {
			calls++;
			throw n8nRequestError(503, { error: 'busy' });
		};
		const thrown = await scheduler.run({ method: 'GET', send, settings: settings() }).catch((e: unknown) => e);
		expect(calls).toBe(4);
		expect(retryOutcomeOf(thrown)).toMatchObject({ reason: 'attemptsUsed', attempts: 4 });
		expect((toNodeApiError(FAKE_NODE, thrown) as NodeApiError).description).toMatch(/sent the request 4 times/);
	});

	it('a POST 500 or broken connection is sent once: its outcome is unknown', async () => {
		for (const failure of [
			n8nRequestError(500, { error: 'db' }),
			connectionError('ECONNRESET', 'socket hang up'),
			connectionError('ECONNABORTED', 'timeout of 60000ms exceeded'),
			// n8n 1.x: the axios error is gone, its code left as a string httpCode
			n8n1ConnectionError('ECONNRESET', 'socket hang up'),
			n8n1ConnectionError('ECONNABORTED', 'timeout of 60000ms exceeded'),
		]) {
			const scheduler = newScheduler();
			let calls = 0;
			const thrown = await scheduler
				.run({
					method: 'POST',
					send: async () => {
						calls++;
						throw failure;
					},
					settings: settings(),
				})
				.catch((e: unknown) => e);
			expect(calls).toBe(1);
			expect(retryOutcomeOf(thrown)).toMatchObject({ outcomeUnknown: true });
			expect((toNodeApiError(FAKE_NODE, thrown) as NodeApiError).message).toMatch(/^Outcome unknown/);
		}
	});

	it('a POST answered 429 is repeated: the service said it did not process it', async () => {
		const scheduler = newScheduler();
		let calls = 0;
		const send = async () => {
			if (++calls === 1) throw n8nRequestError(429, TOO_MANY, { 'retry-after': '1' });
			return 'created';
		};
		await expect(scheduler.run({ method: 'POST', send, settings: settings() })).resolves.toBe('created');
		expect(calls).toBe(2);
	});
});

describe('a 401 that outlived n8n\'s own token refresh (queue mode: another process replaced the token)', () => {
	it('is sent again after growing pauses, also a POST (the service did not process it), up to 3 times', async () => {
		for (const method of ['GET', 'POST']) {
			const scheduler = newScheduler();
			const sentAt: number[] = [];
			const send = async () => {
				sentAt.push(clock.now);
				if (sentAt.length <= 3) throw n8nRequestError(401, { message: 'Invalid or revoked bearer token' });
				return 'ok';
			};
			await expect(scheduler.run({ method, send, settings: settings() })).resolves.toBe('ok');
			expect(sentAt).toHaveLength(4);
			expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(1000);
			expect(sentAt[2] - sentAt[1]).toBeGreaterThanOrEqual(2000);
		}
	});

	it('the token cache\'s TokenReplacedError is re-sent too, also as n8n 1.x wraps it (its mark dropped, the message kept)', async () => {
		const scheduler = newScheduler();
		let calls = 0;
		const n8n1 = new NodeApiError(FAKE_NODE, new TokenReplacedError() as never);
		Object.defineProperty(n8n1, 'cause', { value: undefined, writable: true, enumerable: true, configurable: true });
		const send = async () => {
			if (++calls === 1) throw n8n1;
			return 'ok';
		};
		await expect(scheduler.run({ method: 'POST', send, settings: settings() })).resolves.toBe('ok');
		expect(calls).toBe(2);
	});

	it('a 401 that stays is given up after 4 tries; the token cache\'s TokenReplacedError is re-sent too', async () => {
		const scheduler = newScheduler();
		let calls = 0;
		const thrown = await scheduler
			.run({
				method: 'GET',
				send: async () => {
					calls++;
					throw calls === 1
						? new NodeApiError(FAKE_NODE, new TokenReplacedError() as never)
						: n8nRequestError(401, { message: 'Invalid or revoked bearer token' });
				},
				settings: settings(),
			})
			.catch((e: unknown) => e);
		expect(calls).toBe(4);
		expect(retryOutcomeOf(thrown)).toMatchObject({ attempts: 4 });
	});
});

describe('cancellation', () => {
	it('a cancelled execution takes its waiting requests out of the queue', async () => {
		const scheduler = newScheduler();
		const controller = new AbortController();
		let calls = 0;
		const send = async () => {
			calls++;
			controller.abort();
			throw n8nRequestError(429, TOO_MANY, { 'retry-after': '10' });
		};
		const thrown = await scheduler.run({ method: 'GET', send, settings: settings(), signals: [controller.signal] }).catch((e: unknown) => e);
		expect(calls).toBe(1);
		expect(retryOutcomeOf(thrown)).toMatchObject({ reason: 'cancelled' });
	});

	it('a POST already sent when the execution is cancelled is reported as outcome unknown, a GET and a queued POST are not', async () => {
		const cancelDuringSend = async (method: string) => {
			const scheduler = newScheduler();
			const controller = new AbortController();
			let answer!: (value: string) => void;
			const send = async () => {
				controller.abort(); // cancelled while the request is on the wire
				return await new Promise<string>((resolve) => (answer = resolve));
			};
			const thrown = await scheduler.run({ method, send, settings: settings(), signals: [controller.signal] }).catch((e: unknown) => e);
			answer('too late');
			return thrown;
		};
		const post = await cancelDuringSend('POST');
		expect(retryOutcomeOf(post)).toMatchObject({ reason: 'cancelled', outcomeUnknown: true });
		expect(toNodeApiError(FAKE_NODE, post, { method: 'POST' }).message).toMatch(/^Outcome unknown — the execution was cancelled after the request was sent/);
		expect(retryOutcomeOf(await cancelDuringSend('GET'))).toMatchObject({ reason: 'cancelled', outcomeUnknown: false });

		const scheduler = newScheduler();
		const controller = new AbortController();
		controller.abort();
		const queued = await scheduler.run({ method: 'POST', send: async () => 'never', settings: settings(), signals: [controller.signal] }).catch((e: unknown) => e);
		expect(retryOutcomeOf(queued)?.outcomeUnknown ?? false).toBe(false);
	});
});

describe('Request Options', () => {
	it('empty means the defaults; 0 Max Requests per Second means adaptive', () => {
		expect(requestSettingsFrom({})).toEqual({ ...DEFAULT_REQUEST_SETTINGS, maxRequestsPerSecond: undefined });
		expect(requestSettingsFrom({ maxRequestsPerSecond: 0, maxConcurrent: 4, giveUpAfterNoSuccessSeconds: 30, maxWaitMinutes: 2, timeout: 5_000 })).toEqual({
			maxConcurrent: 4,
			maxRequestsPerSecond: undefined,
			noProgressLimitMs: 30_000,
			maxWaitMs: 120_000,
			timeoutMs: 5_000,
		});
		expect(requestSettingsFrom({ maxRequestsPerSecond: 2.5 }).maxRequestsPerSecond).toBe(2.5);
	});
});

describe('the Request Options fields', () => {
	it('show the defaults the transport uses', () => {
		const defaults = Object.fromEntries((paceOptions as Array<{ name: string; default: unknown }>).map((o) => [o.name, o.default]));
		expect(requestSettingsFrom(defaults)).toEqual({ ...DEFAULT_REQUEST_SETTINGS, maxRequestsPerSecond: undefined });
	});

	it('adding n8n\'s Timeout option fills in the timeout the node already uses without it', () => {
		const timeout = requestOptionsField.options!.find((option) => option.name === 'timeout') as { default: unknown };
		expect(requestSettingsFrom({ timeout: timeout.default }).timeoutMs).toBe(requestSettingsFrom({}).timeoutMs);
	});
});
