// A fake clock for the transport's queue: n8n-workflow's `sleep` is mocked with `virtualSleep`, so minutes of
// pacing run in milliseconds and every wait is exact. Use in a test file as
//   jest.mock('n8n-workflow', () => ({
//     ...jest.requireActual('n8n-workflow'),
//     sleep: async (ms: number) => await jest.requireActual<typeof import('./virtualClock')>('./virtualClock').virtualSleep(ms),
//   }));
// and build schedulers with `new RequestScheduler(() => clock.now)`.

/** `timers` set (inside `inVirtualTime`): waits overlap as in real time; otherwise each wait simply adds. */
export const clock = { now: 1_000_000, timers: undefined as Array<{ at: number; wake: () => void }> | undefined };

export function resetClock(): void {
	clock.now = 1_000_000;
	clock.timers = undefined;
}

export async function virtualSleep(ms: number): Promise<void> {
	if (!clock.timers) {
		clock.now += ms;
		return;
	}
	await new Promise<void>((wake) => clock.timers!.push({ at: clock.now + ms, wake }));
}

/**
 * Runs `scenario` with waits that overlap: when nothing else can run, the clock jumps to the earliest wait's end.
 * For scenarios where two things wait at once (work arriving while the queue paces).
 */
export async function inVirtualTime<T>(scenario: () => Promise<T>): Promise<T> {
	clock.timers = [];
	let done = false;
	const result = scenario().finally(() => {
		done = true;
	});
	try {
		while (!done) {
			for (let i = 0; i < 50; i++) await Promise.resolve();
			if (done) break;
			clock.timers.sort((a, b) => a.at - b.at);
			const next = clock.timers.shift();
			if (!next) throw new Error('the scenario waits for something that never comes');
			clock.now = Math.max(clock.now, next.at);
			next.wake();
		}
		return await result;
	} finally {
		clock.timers = undefined;
	}
}
