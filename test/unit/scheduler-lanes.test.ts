// The credential's queue (transport/scheduler.ts) from the side of what waits in it, on a fake clock: requests a
// person waits for pass queued bulk work, Max Wait per Request counts the time queued, and a request that settled
// leaves nothing behind on the execution's cancel signal.
import { getEventListeners } from 'node:events';

import { retryOutcomeOf } from '../../nodes/shared/transport/outcome';
import { RequestScheduler } from '../../nodes/shared/transport/scheduler';
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from '../../nodes/shared/transport/settings';
import { n8nRequestError } from './fakes';
import { clock, inVirtualTime, resetClock, virtualSleep } from './virtualClock';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => await jest.requireActual<typeof import('./virtualClock')>('./virtualClock').virtualSleep(ms),
}));

beforeEach(resetClock);

const settings = (overrides: Partial<RequestSettings> = {}): RequestSettings => ({ ...DEFAULT_REQUEST_SETTINGS, ...overrides });
const newScheduler = () => new RequestScheduler(() => clock.now);

/** A service that records what was sent when, by name. */
function recordingService() {
	const sent: Array<{ name: string; at: number }> = [];
	const sender = (name: string) => async () => {
		sent.push({ name, at: clock.now });
		return name;
	};
	return { sent, sender };
}

describe('requests a person waits for pass queued bulk work', () => {
	it('at 1 req/s with 100 bulk requests queued, an interactive request is the next one sent, within one interval', async () => {
		const scheduler = newScheduler();
		const { sent, sender } = recordingService();
		const pace = settings({ maxRequestsPerSecond: 1 });
		const { interactive, queuedAt } = await inVirtualTime(async () => {
			const bulk = Array.from({ length: 100 }, (_, i) => scheduler.run({ method: 'PATCH', send: sender(`bulk-${i}`), settings: pace }));
			await virtualSleep(2_500);
			const queuedAt = clock.now;
			const interactive = await scheduler.run({ method: 'GET', send: sender('activation'), settings: settings(), interactive: true });
			await Promise.all(bulk);
			return { interactive, queuedAt };
		});
		expect(interactive).toBe('activation');
		const next = sent.find((entry) => entry.at >= queuedAt);
		expect(next?.name).toBe('activation');
		expect(next!.at - queuedAt).toBeLessThanOrEqual(1_000);
		// It kept the pace: never two requests within the interval.
		const gaps = sent.slice(1).map((entry, i) => entry.at - sent[i].at);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_000);
		expect(sent).toHaveLength(101);
	});

	it('is sent while every bulk slot (Max Concurrent Requests) is taken by requests that have not answered', async () => {
		const scheduler = newScheduler();
		const answers: Array<() => void> = [];
		const hanging = async () => await new Promise<string>((resolve) => answers.push(() => resolve('bulk')));
		const bulk = Array.from({ length: 10 }, () => scheduler.run({ method: 'PATCH', send: hanging, settings: settings({ maxConcurrent: 2 }) }));
		await Promise.resolve();
		expect(answers).toHaveLength(2);

		await expect(scheduler.run({ method: 'GET', send: async () => 'list', settings: settings(), interactive: true })).resolves.toBe('list');

		expect(answers).toHaveLength(2);
		while (answers.length > 0) {
			answers.shift()!();
			await new Promise((resolve) => setImmediate(resolve));
		}
		await expect(Promise.all(bulk)).resolves.toHaveLength(10);
	});

	it('still waits out the pause the service asked for after a 429', async () => {
		const scheduler = newScheduler();
		const { sent, sender } = recordingService();
		let refused = false;
		const refusedOnce = async () => {
			sent.push({ name: 'bulk', at: clock.now });
			if (!refused) {
				refused = true;
				throw n8nRequestError(429, { message: 'Too many requests' }, { 'retry-after': '10' });
			}
			return 'bulk';
		};
		const start = clock.now;
		await inVirtualTime(async () => {
			const bulk = Array.from({ length: 5 }, () => scheduler.run({ method: 'PATCH', send: refusedOnce, settings: settings({ maxConcurrent: 1 }) }));
			await virtualSleep(1_000);
			await scheduler.run({ method: 'GET', send: sender('list'), settings: settings(), interactive: true });
			await Promise.all(bulk);
		});
		const list = sent.find((entry) => entry.name === 'list')!;
		expect(list.at).toBeGreaterThanOrEqual(start + 10_000);
		// After the pause it goes first, before the refused request and the rest of the bulk queue.
		expect(sent.filter((entry) => entry.at >= start + 10_000)[0].name).toBe('list');
	});
});

describe('Max Wait per Request counts the time a request waits in the queue', () => {
	it('a request that could not be sent within it is given up unsent, with an error that says nothing was sent', async () => {
		const scheduler = newScheduler();
		const { sent, sender } = recordingService();
		const pace = settings({ maxRequestsPerSecond: 1, maxWaitMs: 10_000 });
		const start = clock.now;
		const results = await inVirtualTime(
			async () => await Promise.allSettled(Array.from({ length: 30 }, (_, i) => scheduler.run({ method: 'POST', send: sender(`create-${i}`), settings: pace }))),
		);
		// One a second from the start: those that could start within 10 s were sent, the others never.
		expect(sent.map((entry) => entry.at - start)).toEqual(Array.from({ length: 11 }, (_, i) => i * 1_000));
		const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as Error);
		expect(failed).toHaveLength(19);
		expect(retryOutcomeOf(failed[0])).toMatchObject({ reason: 'waitedTooLong', attempts: 0, outcomeUnknown: false });
		expect(failed[0].message).toMatch(/^Not sent: .*Max Wait per Request \(10 s\).*, so nothing was sent for it/);
		// Given up when its time was up, not when the queue reached it.
		expect(clock.now - start).toBeLessThanOrEqual(11_000);
	});
});

describe('Max Wait per Request when the service paused the queue', () => {
	it('an interactive request (the trigger\'s activation: 30 s) during a 45 s pause fails at once, unsent, and says why', async () => {
		const scheduler = newScheduler();
		const { sent, sender } = recordingService();
		const refused = async () => {
			throw n8nRequestError(429, { message: 'Too many requests' }, { 'retry-after': '45' });
		};
		// A bulk request is refused and waits out the pause (its limits allow 45 s); the activation comes 1 s later.
		const { thrown, waited } = await inVirtualTime(async () => {
			const bulk = scheduler.run({ method: 'PATCH', send: refused, settings: settings() }).catch(() => undefined);
			await virtualSleep(1_000);
			const start = clock.now;
			const thrown = (await scheduler
				.run({ method: 'GET', send: sender('activation'), settings: settings({ maxWaitMs: 30_000 }), interactive: true })
				.catch((error: unknown) => error)) as Error;
			const waited = clock.now - start;
			await bulk;
			return { thrown, waited };
		});

		expect(waited).toBe(0);
		expect(sent).toEqual([]);
		expect(retryOutcomeOf(thrown)).toMatchObject({ reason: 'waitedTooLong', attempts: 0 });
		expect(thrown.message).toBe(
			"Not sent: this request could not be sent within the 30 s it may wait; the service's rate limit holds this credential's requests for another 44 s, so nothing was sent for it. Try again in a moment.",
		);
	});
});

describe('the execution\'s cancel signal', () => {
	// Node warns (MaxListenersExceededWarning) from the 11th listener of a kind on one signal, on its own process
	// object, which a jest test does not hear: the test counts the listeners instead.
	it('2,000 requests with one signal: at most one listener on it while they wait (Node warns from 11), none once they settled', async () => {
		const scheduler = newScheduler();
		const execution = new AbortController();
		const own = new AbortController();
		let mostListeners = 0;
		const send = async () => {
			mostListeners = Math.max(mostListeners, getEventListeners(execution.signal, 'abort').length);
			return 'ok';
		};
		const all = Array.from({ length: 2_000 }, () =>
			scheduler.run({ method: 'PATCH', send, settings: settings(), signals: [execution.signal, own.signal] }),
		);
		expect(getEventListeners(execution.signal, 'abort').length).toBeLessThanOrEqual(1);
		await Promise.all(all);

		expect(mostListeners).toBeLessThanOrEqual(1);
		expect(getEventListeners(execution.signal, 'abort')).toHaveLength(0);
		expect(getEventListeners(own.signal, 'abort')).toHaveLength(0);
	});

	it('aborting it takes every waiting request of that execution out of the queue, and no other', async () => {
		const scheduler = newScheduler();
		const { sent, sender } = recordingService();
		const cancelled = new AbortController();
		const other = new AbortController();
		const pace = settings({ maxRequestsPerSecond: 1 });
		const results = await inVirtualTime(async () => {
			const doomed = Array.from({ length: 20 }, (_, i) => scheduler.run({ method: 'PATCH', send: sender(`a-${i}`), settings: pace, signals: [cancelled.signal] }));
			const kept = Array.from({ length: 3 }, (_, i) => scheduler.run({ method: 'PATCH', send: sender(`b-${i}`), settings: pace, signals: [other.signal] }));
			await virtualSleep(2_500);
			cancelled.abort();
			return { doomed: await Promise.allSettled(doomed), kept: await Promise.all(kept) };
		});
		expect(results.kept).toEqual(['b-0', 'b-1', 'b-2']);
		expect(sent.filter((entry) => entry.name.startsWith('a-'))).toHaveLength(3);
		const reasons = results.doomed.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => retryOutcomeOf(r.reason)?.reason);
		expect(reasons).toEqual(Array(17).fill('cancelled'));
		expect(getEventListeners(cancelled.signal, 'abort')).toHaveLength(0);
		expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
	});
});
