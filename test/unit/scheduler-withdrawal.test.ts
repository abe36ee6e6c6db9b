// The caller's withdrawal (transport/scheduler.ts `withdrawal`, a runner stopping after a row failed) against the
// execution's cancellation: a write on the wire is waited for and its answer delivered, so the runner can name it;
// nothing leaves after the failure; a read on the wire, and anything still queued, is given up. On the fake clock.
import { retryOutcomeOf } from '../../nodes/shared/transport/outcome';
import { RequestScheduler } from '../../nodes/shared/transport/scheduler';
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from '../../nodes/shared/transport/settings';
import { n8nRequestError } from './fakes';
import { clock, inVirtualTime, resetClock } from './virtualClock';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => await jest.requireActual<typeof import('./virtualClock')>('./virtualClock').virtualSleep(ms),
}));

beforeEach(resetClock);

const settings = (overrides: Partial<RequestSettings> = {}): RequestSettings => ({ ...DEFAULT_REQUEST_SETTINGS, ...overrides });
const newScheduler = () => new RequestScheduler(() => clock.now, () => 0.5);

/** A request that stays on the wire until `answer` or `fail` is called. */
function onTheWire() {
	let answer!: (value: string) => void;
	let fail!: (error: unknown) => void;
	let sent = 0;
	const send = async () => {
		sent++;
		return await new Promise<string>((resolve, reject) => {
			answer = resolve;
			fail = reject;
		});
	};
	return { send, answer: (value: string) => answer(value), fail: (error: unknown) => fail(error), sent: () => sent };
}

const settled = async (promise: Promise<unknown>) => await promise.then((value) => ({ value }), (error: unknown) => ({ error }));

describe('the caller withdraws its requests', () => {
	it.each(['POST', 'PATCH', 'DELETE'])('a %s on the wire is waited for and its answer delivered; a queued one leaves unsent', async (method) => {
		const scheduler = newScheduler();
		const withdrawal = new AbortController();
		const wire = onTheWire();
		let queuedSent = false;
		const first = settled(scheduler.run({ method, send: wire.send, settings: settings({ maxConcurrent: 1 }), withdrawal: withdrawal.signal }));
		const queued = settled(scheduler.run({ method, send: async () => ((queuedSent = true), 'sent'), settings: settings({ maxConcurrent: 1 }), withdrawal: withdrawal.signal }));
		await Promise.resolve();
		withdrawal.abort();
		wire.answer('created');

		expect(await first).toEqual({ value: 'created' });
		const left = (await queued) as { error: unknown };
		expect(queuedSent).toBe(false);
		expect(retryOutcomeOf(left.error)).toMatchObject({ reason: 'withdrawn', attempts: 0, outcomeUnknown: false });
	});

	it('a GET on the wire is given up at once: its answer is not needed', async () => {
		const scheduler = newScheduler();
		const withdrawal = new AbortController();
		const wire = onTheWire();
		const read = settled(scheduler.run({ method: 'GET', send: wire.send, settings: settings(), withdrawal: withdrawal.signal }));
		await Promise.resolve();
		withdrawal.abort();

		expect(retryOutcomeOf(((await read) as { error: unknown }).error)).toMatchObject({ reason: 'cancelled', outcomeUnknown: false });
		wire.answer('late');
	});

	it('a withdrawn write answered 429 is not sent again, and says it was not carried out', async () => {
		const scheduler = newScheduler();
		const withdrawal = new AbortController();
		const wire = onTheWire();
		const write = settled(scheduler.run({ method: 'POST', send: wire.send, settings: settings(), withdrawal: withdrawal.signal }));
		await Promise.resolve();
		withdrawal.abort();
		wire.fail(n8nRequestError(429, { message: 'Too many requests' }, { 'retry-after': '1' }));

		expect(retryOutcomeOf(((await write) as { error: unknown }).error)).toMatchObject({ reason: 'withdrawn', attempts: 1, outcomeUnknown: false });
		expect(wire.sent()).toBe(1);
	});

	it('a withdrawn write on the wire is still given up, outcome unknown, when the execution is cancelled', async () => {
		const scheduler = newScheduler();
		const execution = new AbortController();
		const withdrawal = new AbortController();
		const wire = onTheWire();
		const write = settled(scheduler.run({ method: 'POST', send: wire.send, settings: settings(), signals: [execution.signal], withdrawal: withdrawal.signal }));
		await Promise.resolve();
		withdrawal.abort();
		execution.abort();

		expect(retryOutcomeOf(((await write) as { error: unknown }).error)).toMatchObject({ reason: 'cancelled', outcomeUnknown: true });
		wire.answer('late');
	});

	it('a failure frees its slot only once the caller heard of it: a caller that withdraws then sends nothing more', async () => {
		const sent: string[] = [];
		await inVirtualTime(async () => {
			const scheduler = newScheduler();
			const withdrawal = new AbortController();
			const request = (name: string, send: () => Promise<string>) =>
				scheduler.run({ method: 'POST', send: async () => (sent.push(name), await send()), settings: settings({ maxConcurrent: 1 }), withdrawal: withdrawal.signal });
			const refused = request('refused', async () => await Promise.reject(n8nRequestError(422, { error: 'refused' })));
			// The runner's way: it stops when it hears of the failure.
			const stopped = refused.catch(() => withdrawal.abort());
			const next = settled(request('next', async () => 'created'));
			await stopped;
			expect(retryOutcomeOf(((await next) as { error: unknown }).error)).toMatchObject({ reason: 'withdrawn', attempts: 0 });
		});
		expect(sent).toEqual(['refused']);
	});
});
