// The Item Trigger history checker's invariants (test/histories/item-trigger/invariants.ts) on hand-made ledgers, with
// Only When New Status Is = approved: a change the filter left out may stand as an announcement's previous status,
// and nothing else may (a repeated announcement is still a duplicate).
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
