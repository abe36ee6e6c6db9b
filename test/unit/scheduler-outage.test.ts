// The credential's queue (transport/scheduler.ts, outage.ts) through an outage of the service, on a fake clock: a
// 5xx or a failed connection is not a rate limit. After the outage the queue goes on at the pace it had before,
// without a storm while the service is down or when it comes back, and loses nothing.
import { RequestScheduler } from '../../nodes/shared/transport/scheduler';
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from '../../nodes/shared/transport/settings';
import { connectionError, n8nRequestError } from './fakes';
import { clock, inVirtualTime, resetClock, virtualSleep } from './virtualClock';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => await jest.requireActual<typeof import('./virtualClock')>('./virtualClock').virtualSleep(ms),
}));

beforeEach(resetClock);

const settings = (overrides: Partial<RequestSettings> = {}): RequestSettings => ({ ...DEFAULT_REQUEST_SETTINGS, ...overrides });
const newScheduler = () =>
	new RequestScheduler(
		() => clock.now,
		() => 0.5,
	);

type Down = 'http-date' | 'seconds' | 'no Retry-After' | 'connection reset' | 'HTTP 500';

/**
 * A service answering every request after `latencyMs`, down for `lastsMs` from the arrival of request number
 * `after + 1`: each request arriving then fails as `down` says (a 503 saying when it ends, rounded up to the
 * second as an HTTP date or in seconds, a 502 without Retry-After, a reset connection, a 500).
 */
function serviceWithOutage(options: { after: number; lastsMs: number; down: Down; latencyMs?: number }) {
	const latencyMs = options.latencyMs ?? 20;
	/** When each request that succeeded, and each that failed, arrived. */
	const log = { arrived: 0, ok: [] as number[], failed: [] as number[], mostInFlightWhileDown: 0 };
	let startsAt: number | undefined;
	let endsAt = Number.POSITIVE_INFINITY;
	let inFlight = 0;
	const failure = (now: number): Error => {
		const until = Math.ceil(endsAt / 1000) * 1000;
		switch (options.down) {
			case 'http-date':
				return n8nRequestError(503, { error: 'unavailable' }, { 'retry-after': new Date(until).toUTCString() });
			case 'seconds':
				return n8nRequestError(503, { error: 'unavailable' }, { 'retry-after': String(Math.ceil((endsAt - now) / 1000)) });
			case 'no Retry-After':
				return n8nRequestError(502, { error: 'bad gateway' });
			case 'HTTP 500':
				return n8nRequestError(500, { error: 'down' });
			case 'connection reset':
				return connectionError('ECONNRESET', 'socket hang up');
		}
	};
	const send = async () => {
		const arrivedAt = clock.now;
		if (++log.arrived === options.after + 1) {
			startsAt = arrivedAt;
			endsAt = arrivedAt + options.lastsMs;
		}
		const down = startsAt !== undefined && arrivedAt < endsAt;
		inFlight++;
		if (down) log.mostInFlightWhileDown = Math.max(log.mostInFlightWhileDown, inFlight);
		await virtualSleep(latencyMs);
		inFlight--;
		if (down) {
			log.failed.push(arrivedAt);
			throw failure(arrivedAt);
		}
		log.ok.push(arrivedAt);
		return 'ok';
	};
	return { send, log, outage: () => ({ startsAt: startsAt!, endsAt }) };
}

/** `count` PATCHes through `service`, all queued at once (n8n starts every item's request together). */
async function patchAll(scheduler: RequestScheduler, send: () => Promise<string>, count: number, options: Partial<RequestSettings> = {}) {
	return await inVirtualTime(async () => {
		const results = await Promise.allSettled(Array.from({ length: count }, () => scheduler.run({ method: 'PATCH', send, settings: settings({ maxConcurrent: 10, ...options }) })));
		return { ok: results.filter((r) => r.status === 'fulfilled').length, failed: results.filter((r) => r.status === 'rejected').length };
	});
}

describe('after an outage the queue goes on at the pace it had before', () => {
	it.each<Down>(['http-date', 'seconds'])(
		'Update of 200 through a 3 s outage after the 50th (503, Retry-After as %s): nothing before the Retry-After, then the 150 at their pace before; nothing lost',
		async (down) => {
			const scheduler = newScheduler();
			const service = serviceWithOutage({ after: 50, lastsMs: 3_000, down });
			const start = clock.now;
			const { ok, failed } = await patchAll(scheduler, service.send, 200);
			expect({ ok, failed }).toEqual({ ok: 200, failed: 0 });
			const { startsAt, endsAt } = service.outage();
			const askedUntil = down === 'http-date' ? Math.ceil(endsAt / 1000) * 1000 : startsAt + Math.ceil((endsAt - startsAt) / 1000) * 1000;
			const before = service.log.ok.filter((at) => at <= startsAt);
			const after = service.log.ok.filter((at) => at > startsAt);
			// The Retry-After is honoured: nothing succeeds (or is sent) before the date the service gave.
			expect(Math.min(...after)).toBeGreaterThanOrEqual(askedUntil);
			const perRequestBefore = (Math.max(...before) - start) / before.length;
			// The 150 after it, from the Retry-After date, at the pace before (1.5 × its time per request at most).
			expect(Math.max(...after) - askedUntil).toBeLessThanOrEqual(1.5 * after.length * perRequestBefore);
			// No pace was learned from the outage: the queue keeps none, as before it.
			expect(scheduler.currentRate).toBeUndefined();
		},
	);

	it('a queue paced by 429s keeps the pace it had learned, not one learned from the outage', async () => {
		const scheduler = newScheduler();
		// A pace learned first: a 429 after 20 quick successes; the outage comes 80 requests later.
		let sent = 0;
		const service = serviceWithOutage({ after: 100, lastsMs: 3_000, down: 'http-date' });
		const paceAt: Array<{ at: number; rate: number | undefined }> = [];
		const send = async () => {
			paceAt.push({ at: clock.now, rate: scheduler.currentRate });
			if (++sent === 21) throw n8nRequestError(429, { message: 'Too many requests' }, { 'retry-after': '1' });
			return await service.send();
		};
		const { ok } = await patchAll(scheduler, send, 200);
		expect(ok).toBe(200);
		const { startsAt } = service.outage();
		const lastBefore = paceAt.filter((p) => p.at < startsAt).at(-1)!.rate!;
		const firstAfter = paceAt.find((p) => p.at > startsAt + 3_000)!.rate!;
		expect(lastBefore).toBeDefined();
		// The outage neither cut the pace (to what got through over it, before) nor made it jump (its seconds
		// taken for seconds of calm to grow on).
		expect(firstAfter / lastBefore).toBeGreaterThan(0.97);
		expect(firstAfter / lastBefore).toBeLessThan(1.1);
	});
});

describe('no storm: while the service is down one request at a time probes it', () => {
	it.each<Down>(['no Retry-After', 'connection reset'])('%s for 5 s: besides the requests in flight when it began, one at a time; nothing lost', async (down) => {
		const scheduler = newScheduler();
		const service = serviceWithOutage({ after: 50, lastsMs: 5_000, down });
		const { ok, failed } = await patchAll(scheduler, service.send, 200);
		expect({ ok, failed }).toEqual({ ok: 200, failed: 0 });
		const { startsAt } = service.outage();
		// The 10 in flight at its start (Max Concurrent Requests), then probes 250 ms, 0.5, 1, 2, 4 s apart.
		expect(service.log.failed.length).toBeLessThanOrEqual(10 + 6);
		expect(service.log.failed.filter((at) => at > startsAt + 50).length).toBeLessThanOrEqual(6);
		// Back within the longest probe interval (4 s) of its end.
		expect(Math.min(...service.log.ok.filter((at) => at > startsAt))).toBeLessThanOrEqual(startsAt + 5_000 + 4_000 + 1_000);
	});

	it('a 503 whose Retry-After is too early: one probe per pause it asks for, then the pace before', async () => {
		const scheduler = newScheduler();
		const service = serviceWithOutage({ after: 50, lastsMs: 4_000, down: 'seconds' });
		// The service says 1 s, and is down for 4: wrapped, every answer of the outage says "Retry-After: 1".
		const send = async () =>
			await service.send().catch(() => {
				throw n8nRequestError(503, { error: 'unavailable' }, { 'retry-after': '1' });
			});
		const start = clock.now;
		const { ok } = await patchAll(scheduler, send, 200);
		expect(ok).toBe(200);
		const { startsAt, endsAt } = service.outage();
		expect(service.log.failed.filter((at) => at > startsAt + 50).length).toBeLessThanOrEqual(4);
		const before = service.log.ok.filter((at) => at <= startsAt);
		const after = service.log.ok.filter((at) => at > startsAt);
		const perRequestBefore = (Math.max(...before) - start) / before.length;
		// Back within a probe interval (1 s) of its end, then the pace before.
		expect(Math.max(...after) - endsAt).toBeLessThanOrEqual(1_000 + 1.5 * after.length * perRequestBefore);
	});
});

describe('what an outage does not change', () => {
	it('a service that never answered (a wrong Base URL, a proxy answering 502 to everything): each request 4 tries, given up as before', async () => {
		const scheduler = newScheduler();
		let calls = 0;
		const send = async () => {
			calls++;
			await virtualSleep(20);
			throw n8nRequestError(502, { error: 'bad gateway' });
		};
		const start = clock.now;
		const { failed } = await patchAll(scheduler, send, 20);
		expect(failed).toBe(20);
		expect(calls).toBe(80);
		expect(clock.now - start).toBeLessThan(5_000);
	});

	it('a POST sent as the outage\'s probe and answered 500 is sent once (it may have been carried out)', async () => {
		const scheduler = newScheduler();
		const service = serviceWithOutage({ after: 10, lastsMs: 1_000, down: 'HTTP 500' });
		expect((await patchAll(scheduler, service.send, 10)).ok).toBe(10);
		let posts = 0;
		const [patch, post] = await inVirtualTime(
			async () =>
				await Promise.allSettled([
					// The PATCH meets the outage first; the POST, queued behind it, is sent as its probe.
					scheduler.run({ method: 'PATCH', send: service.send, settings: settings({ maxConcurrent: 1 }) }),
					scheduler.run({
						method: 'POST',
						send: async () => {
							posts++;
							return await service.send();
						},
						settings: settings({ maxConcurrent: 1 }),
					}),
				]),
		);
		expect(patch.status).toBe('rejected');
		expect(post.status).toBe('rejected');
		expect(posts).toBe(1);
	});

	it('a 500 that starts an outage fails its own PATCH (as before); the PATCHes in flight with it are sent again', async () => {
		const scheduler = newScheduler();
		const service = serviceWithOutage({ after: 10, lastsMs: 1_000, down: 'HTTP 500' });
		const { ok, failed } = await patchAll(scheduler, service.send, 30);
		expect({ ok, failed }).toEqual({ ok: 29, failed: 1 });
		expect(service.log.failed.length).toBeGreaterThan(1);
	});
});
