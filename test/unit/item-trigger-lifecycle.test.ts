// How a poll tells, from n8n's context alone, the activation's poll from a scheduled one, and a superseded one
// (nodes/ConsignmentVendorItemTrigger/pollLifecycle.ts). The contexts stand in for n8n's PollContext: n8n 1.x and 2.x
// make one per activation and reuse it for every tick; 2.x's durable scheduler makes one per tick with a short budget.
import type { IPollFunctions } from 'n8n-workflow';

import { beginPoll, forgetPollLives } from '../../nodes/ConsignmentVendorItemTrigger/pollLifecycle';

function pollContext(options: { workflowId?: string; nodeId?: string; budgetMs?: number } = {}): IPollFunctions {
	return {
		getWorkflow: () => ({ id: options.workflowId ?? 'wf-1', name: 'wf', active: true }),
		getNode: () => ({ id: options.nodeId ?? 'node-1' }),
		...(options.budgetMs === undefined ? {} : { getPollBudgetMs: () => options.budgetMs }),
	} as unknown as IPollFunctions;
}

beforeEach(() => forgetPollLives());

describe('activation or scheduled poll', () => {
	it('the first poll of a context is the activation; later ones of the same context are scheduled', () => {
		const context = pollContext();
		const first = beginPoll(context);
		first.end();
		const second = beginPoll(context);
		second.end();
		expect([first.kind, second.kind]).toEqual(['activation', 'scheduled']);
	});

	it("n8n 2.41's default budget (5 minutes) is an activation's context; a shorter one is the durable scheduler's per-poll context", () => {
		expect(beginPoll(pollContext({ budgetMs: 5 * 60_000 })).kind).toBe('activation');
		const activation = beginPoll(pollContext({ budgetMs: 5 * 60_000 }));
		const durableTick = beginPoll(pollContext({ budgetMs: 36_000 }));
		expect(durableTick.kind).toBe('scheduled');
		// A per-poll context does not supersede the activation.
		expect([activation.isCurrent(), durableTick.isCurrent()]).toEqual([true, true]);
	});
});

describe('superseded', () => {
	it('a new context of the same trigger supersedes the older one: its polls are no longer current, and its signal aborts', () => {
		const old = pollContext();
		const running = beginPoll(old);
		expect(running.isCurrent()).toBe(true);
		const activation = beginPoll(pollContext());
		expect([running.isCurrent(), running.signal.aborted]).toEqual([false, true]);
		expect([activation.isCurrent(), activation.signal.aborted]).toEqual([true, false]);
		// A later tick of the old context (its timer already stopped by n8n) is not current either.
		expect(beginPoll(old).isCurrent()).toBe(false);
	});

	it('other triggers (another node, another workflow) are not affected', () => {
		const running = beginPoll(pollContext());
		beginPoll(pollContext({ nodeId: 'node-2' }));
		beginPoll(pollContext({ workflowId: 'wf-2' }));
		expect(running.isCurrent()).toBe(true);
	});

	it('overlapping: a poll that begins while another of the same trigger reads says so, until that one ends', () => {
		const context = pollContext();
		const first = beginPoll(context);
		const second = beginPoll(context);
		expect(second.overlapping).toBe(true);
		second.end();
		first.end();
		first.end();
		expect(beginPoll(context).overlapping).toBe(false);
	});
});

describe('memory n8n did not save', () => {
	const saved = { v: 1, numeric: '1A' };
	const baseline = { v: 1, numeric: '1A1B' };
	const later = { v: 1, numeric: '1A1B1C' };

	it('a quiet scheduled poll\'s memory is taken over by the next activation that loads the memory it descends from', () => {
		const activationContext = pollContext();
		const activation = beginPoll(activationContext);
		activation.noteMemory(undefined, saved, false);
		activation.end();
		const tick = beginPoll(activationContext);
		tick.noteMemory(saved, baseline, false);
		tick.end();
		const tick2 = beginPoll(activationContext);
		tick2.noteMemory(baseline, later, false);
		tick2.end();
		const reactivation = beginPoll(pollContext());
		expect(reactivation.unsavedSuccessor(saved)).toEqual(later);
		// n8n saved it after that activation: a further activation that loads it has nothing newer to take over.
		reactivation.noteMemory(later, later, false);
		reactivation.end();
		expect(beginPoll(pollContext()).unsavedSuccessor(later)).toBeUndefined();
	});

	it('after a poll returned events: nothing is taken over when n8n saved what it wrote; the kept memory still is when 2.41 discarded the poll (a deactivation)', () => {
		// An activation, a quiet poll (saved -> baseline, not saved by n8n), then a poll that returns events (-> later).
		const quietThenAnnouncing = () => {
			const context = pollContext();
			beginPoll(context).end();
			for (const [from, to, returnedEvents] of [[saved, baseline, false], [baseline, later, true]] as const) {
				const poll = beginPoll(context);
				poll.noteMemory(from, to, returnedEvents);
				poll.end();
			}
		};
		quietThenAnnouncing();
		// n8n saved `later`: the activation loads it and has nothing newer to take over; the kept memory is let go
		// (it would otherwise still answer for the older `saved` it descends from).
		expect(beginPoll(pollContext()).unsavedSuccessor(later)).toBeUndefined();
		expect(beginPoll(pollContext()).unsavedSuccessor(saved)).toBeUndefined();

		quietThenAnnouncing();
		// 2.41 discarded that poll: the activation loads `saved`, and the quiet poll's memory is still the latest.
		expect(beginPoll(pollContext()).unsavedSuccessor(saved)).toEqual(baseline);
	});

	it('nothing is taken over onto a saved memory it does not descend from', () => {
		const context = pollContext();
		beginPoll(context).end();
		const tick = beginPoll(context);
		tick.noteMemory(saved, baseline, false);
		tick.end();
		expect(beginPoll(pollContext()).unsavedSuccessor({ v: 1, numeric: '9Z' })).toBeUndefined();

		const next = pollContext();
		beginPoll(next).end();
		const announcing = beginPoll(next);
		announcing.noteMemory(baseline, later, true);
		expect(beginPoll(pollContext()).unsavedSuccessor(baseline)).toBeUndefined();
	});

	it('a superseded poll notes nothing', () => {
		const context = pollContext();
		beginPoll(context).end();
		const tick = beginPoll(context);
		beginPoll(pollContext()).end();
		tick.noteMemory(saved, baseline, false);
		expect(beginPoll(pollContext()).unsavedSuccessor(saved)).toBeUndefined();
	});
});

describe('a memory an earlier process saved', () => {
	const saved = { v: 1, numeric: '1A' };

	it('the first activation of a trigger in this process marks what it loaded as inherited, until a quiet complete read was compared with it', () => {
		const context = pollContext();
		const activation = beginPoll(context);
		expect(activation.firstInProcess).toBe(true);
		activation.markInherited(saved);
		activation.end();
		const tick = beginPoll(context);
		expect([tick.firstInProcess, tick.isInherited(saved), tick.isInherited({ v: 1, numeric: '1B' })]).toEqual([false, true, false]);
		// A poll that returned events: n8n saved a newer memory (or 2.41 discarded the poll): the mark stays on the old one.
		tick.noteMemory(saved, { v: 1, numeric: '1B' }, true);
		expect(tick.isInherited(saved)).toBe(true);
		tick.noteMemory(saved, saved, false);
		expect(tick.isInherited(saved)).toBe(false);
		tick.end();
	});

	it('a later activation in the same process is not the first (its quiet polls\' memory is kept in the process)', () => {
		beginPoll(pollContext()).end();
		expect(beginPoll(pollContext()).firstInProcess).toBe(false);
	});
});
