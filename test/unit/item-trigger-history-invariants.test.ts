// The Item Trigger history checker's invariants (test/histories/item-trigger/invariants.ts) on hand-made ledgers, with
// Only When New Status Is = approved: a change the filter left out may stand as an announcement's previous status,
// and nothing else may (a repeated announcement is still a duplicate). After an upgrade from a memory without `since`,
// a forgotten item may come back as new, and no other item may.
import { checkInvariants } from '../histories/item-trigger/invariants';
import { StatusLedger, type Announcement } from '../histories/item-trigger/ledger';

function ledgerWith(initial: string): StatusLedger {
	const ledger = new StatusLedger();
	ledger.statuses = ['approved'];
	ledger.existing('1', initial);
	ledger.watchStart = { from: 0, to: 0 };
	return ledger;
}

/** A complete tick of process 0 as step `step`, reading in the window (from, now], announcing `announced`. */
function tick(ledger: StatusLedger, step: number, announced: Array<Pick<Announcement, 'previous' | 'status'>>, from = ledger.seq): void {
	const window = { from, to: ledger.seq };
	ledger.processOfStep[step] = 0;
	ledger.reads.push(window);
	ledger.completeTicks.push({ ...window, step, process: 0, clock: 0 });
	for (const a of announced) ledger.announcements.push({ id: '1', event: 'status_changed', previousUnknown: false, step, ...window, ...a });
}

it('rejected (left out by the filter), then approved again: announced from rejected, no violation', () => {
	const ledger = ledgerWith('approved');
	ledger.changed('1', 'rejected');
	tick(ledger, 0, []);
	ledger.changed('1', 'approved');
	tick(ledger, 1, [{ previous: 'rejected', status: 'approved' }]);
	expect(checkInvariants(ledger)).toEqual([]);
});

it('the same approval announced again from the status it had before that announcement: a duplicate', () => {
	const ledger = ledgerWith('pending');
	// Approved while the first tick read: announced there, then announced again by the next tick.
	ledger.changed('1', 'approved');
	tick(ledger, 0, [{ previous: 'pending', status: 'approved' }], 0);
	tick(ledger, 1, [{ previous: 'pending', status: 'approved' }]);
	expect(checkInvariants(ledger).map((v) => v.invariant)).toContain('2. no duplicate (a chain)');
});

it('rejected and approved again between two polls that read it: the approval is owed', () => {
	const ledger = ledgerWith('approved');
	ledger.changed('1', 'rejected');
	tick(ledger, 0, []);
	ledger.changed('1', 'approved');
	tick(ledger, 1, []);
	expect(checkInvariants(ledger).map((v) => v.invariant)).toEqual(['1. nothing lost (a change after a complete poll)']);
});

describe('after an upgrade (test/histories/item-trigger/upgrade-excuses.ts)', () => {
	/**
	 * Item 1 moves to the other listing during two reads in a row (forgettable); item 2 stays; n8n restarts with this
	 * version at step 2; complete ticks follow at steps 3 and 4; step `at` announces `ids` as new.
	 */
	function forgottenAndBack(ids: string[], unheldNewUntilFirstPoll: boolean, at = 3): StatusLedger {
		const ledger = new StatusLedger();
		ledger.existing('1', 'pending');
		ledger.existing('2', 'pending');
		ledger.watchStart = { from: 0, to: 0 };
		for (const [step, status] of [[0, 'approved'], [1, 'pending']] as const) {
			const from = ledger.seq;
			ledger.changed('1', status);
			tick(ledger, step, [], from);
		}
		ledger.processOfStep[2] = 1;
		ledger.upgrade = { step: 2, seq: ledger.seq, unheldNewUntilFirstPoll, startMovedLater: unheldNewUntilFirstPoll, partialWithoutSince: false, savedReadFrom: 0 };
		const window = { from: ledger.seq, to: ledger.seq };
		for (const step of [3, 4]) {
			ledger.processOfStep[step] = 1;
			ledger.reads.push(window);
			ledger.completeTicks.push({ ...window, step, process: 1, clock: 0 });
		}
		for (const id of ids) ledger.announcements.push({ id, event: 'new_item', previous: null, previousUnknown: false, status: 'pending', step: at, ...window });
		return ledger;
	}
	const newItemViolation = '3. new_item only for items added after the trigger started watching';

	it('from a memory without `since`: a forgotten item back as a new_item by the first complete poll is documented', () => {
		expect(checkInvariants(forgottenAndBack(['1'], true))).toEqual([]);
	});

	it('the same from a memory with `since`, or by a later poll: a violation', () => {
		expect(checkInvariants(forgottenAndBack(['1'], false)).map((v) => v.invariant)).toEqual([newItemViolation]);
		expect(checkInvariants(forgottenAndBack(['1'], true, 4)).map((v) => v.invariant)).toContain(newItemViolation);
	});

	it('an item no read can have missed, announced as new: still a violation', () => {
		expect(checkInvariants(forgottenAndBack(['2'], true)).map((v) => v.invariant)).toEqual([newItemViolation]);
	});

	it('with New Item only, a new item a complete poll read before the upgrade is still owed', () => {
		const ledger = new StatusLedger();
		ledger.events = 'new_item';
		ledger.existing('1', 'pending');
		ledger.watchStart = { from: 0, to: 0 };
		ledger.created('2', 'pending');
		tick(ledger, 0, []);
		ledger.processOfStep[1] = 1;
		ledger.upgrade = { step: 1, seq: ledger.seq, unheldNewUntilFirstPoll: false, startMovedLater: true, partialWithoutSince: false, savedReadFrom: ledger.seq };
		expect(checkInvariants(ledger).map((v) => v.invariant)).toEqual(['1. nothing lost', '1. nothing lost (after a complete poll)']);
		// Added before the upgrade's stand-in start and read by no complete poll: owed unless it changed since.
		const unread = (changed: boolean) => {
			const later = new StatusLedger();
			later.events = 'new_item';
			later.existing('1', 'pending');
			later.watchStart = { from: 0, to: 0 };
			later.created('2', 'pending');
			const savedReadFrom = later.seq;
			if (changed) later.changed('2', 'rejected');
			later.processOfStep[0] = 1;
			later.upgrade = { step: 0, seq: later.seq, unheldNewUntilFirstPoll: false, startMovedLater: true, partialWithoutSince: false, savedReadFrom };
			return checkInvariants(later).map((v) => v.invariant);
		};
		expect(unread(true)).toEqual([]);
		expect(unread(false)).toEqual(['1. nothing lost']);
	});
});
