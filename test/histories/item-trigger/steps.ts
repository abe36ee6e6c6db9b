// The steps of an Item Trigger history and how fast-check draws them. A history is what one active workflow with the
// trigger lives through for months: the marketplace changing statuses (and back) and adding items (between polls, or
// while a poll has read one listing and not yet the other), Poll Times ticks, ticks that overlap, polls that fail, the
// workflow deactivated, re-published while a poll reads, n8n restarting, time passing.
import fc from 'fast-check';

import { N8N_CLOCK_MARGIN_MS } from '../../../nodes/ConsignmentVendorItemTrigger/serviceClock';
import type { N8nLine } from '../../harness/trigger';

export const STATUSES = ['pending', 'approved', 'rejected', 'deleted', 'reconciliation'] as const;
export type Status = (typeof STATUSES)[number];
export type Listing = 'approved' | 'non_approved';
/** The trigger's Events parameter: both events, or one of them only. */
export type TriggerEvents = 'both' | 'status_changed' | 'new_item';

/** An item of the history: an index into the items known so far (the tracked seeded ones, then those created). */
export interface Change {
	item: number;
	status: Status;
}

/** A change made while a poll reads: `held` listing's page is answered late, the change lands before it. */
export interface MidRead {
	held: Listing;
	change: Change;
}

export type Step =
	| { kind: 'change'; change: Change }
	| { kind: 'revert'; item: number }
	| { kind: 'create' }
	| { kind: 'wait'; seconds: number }
	| { kind: 'activate'; midRead?: MidRead }
	| { kind: 'tick'; midRead?: MidRead }
	| { kind: 'overlappingTicks'; midRead: MidRead }
	| { kind: 'failingTick'; listing: Listing }
	| { kind: 'deactivate' }
	| { kind: 'deactivateMidRead'; midRead?: MidRead }
	| { kind: 'republish' }
	| { kind: 'republishMidRead'; midRead?: MidRead }
	| { kind: 'restart' }
	| { kind: 'upgrade'; from: OlderMemory };

/**
 * A memory as an older version of the node saved it (statusMemory.ts): without `writes` (before 7282e5a), also
 * without `watching` (before d890619), also without `since` (before fc0f21a; a partial baseline of then has none).
 * Older still (before df97d88, no `account`) reads as another account's memory: a new baseline, not drawn.
 */
export type OlderMemory = 'beforeWrites' | 'beforeWatching' | 'beforeSince';

export interface ClockApart {
	seconds: number;
	dated: boolean;
}

/**
 * The most the clocks are drawn apart when the service sends no `Date`: the trigger's fallback margin less a minute
 * for the history's own real seconds (n8n's clock runs on with them while the service's stands still).
 */
export const UNDATED_APART_MAX_SECONDS = N8N_CLOCK_MARGIN_MS / 1000 - 60;

export interface HistorySetup {
	line: N8nLine;
	/** small: one page per listing (the activation's read is complete); large: two (the activation reads the first). */
	catalogue: 'small' | 'large';
	/** The trigger's Events: both, Status Changed only (new items are not announced), or New Item only. */
	events: TriggerEvents;
	/** The trigger's Only When New Status Is: empty = any status. */
	statuses: Status[];
	/** The service lists a new item this long after its creation (0: at once); the contract does not say. */
	listingDelaySeconds: number;
	/**
	 * running: the service's clock runs with real time (a step takes its milliseconds on it); per step: it stands
	 * still and moves only when time passes in the history, and by a millisecond for each write (every read between
	 * two waits in one second of its `Date`, as on a fast service; n8n's clock runs on apart from it).
	 */
	serviceClock: 'running' | 'perStep';
	/**
	 * The service's clock against n8n's: `seconds` ahead (+) or behind (-), and whether its answers carry a `Date`
	 * header. With one, the trigger reads times on the service's own clock, so hours apart are drawn; without one it
	 * falls back on n8n's clock with a 5-minute margin, so only differences within it are (beyond it, a change can be
	 * lost: docs/item-trigger.md, Clocks).
	 */
	serviceClockApart: ClockApart;
	/** The history begins with the workflow's first activation, a change perhaps landing while it reads. */
	firstActivation: { kind: 'activate'; midRead?: MidRead };
}

/** Either listing as likely: a move from one listing to the other is what a read can miss. */
const status: fc.Arbitrary<Status> = fc.oneof(fc.constant<Status>('approved'), fc.constantFrom<Status>(...STATUSES.filter((s) => s !== 'approved')));
const change = fc.record({ item: fc.nat({ max: 7 }), status });
const midRead = fc.record({ held: fc.constantFrom<Listing>('approved', 'non_approved'), change });
const listing = fc.constantFrom<Listing>('approved', 'non_approved');

export const setupArbitrary: fc.Arbitrary<HistorySetup> = fc.record({
	line: fc.constantFrom<N8nLine>('1.x', '2.x'),
	catalogue: fc.constantFrom<HistorySetup['catalogue']>('small', 'large'),
	listingDelaySeconds: fc.constantFrom(0, 0, 90),
	serviceClock: fc.constantFrom<HistorySetup['serviceClock']>('running', 'running', 'perStep'),
	// One history in three with the clocks apart: up to 6 hours either way with a Date header, up to 4 minutes without.
	serviceClockApart: fc.oneof(
		{ weight: 4, arbitrary: fc.constant<ClockApart>({ seconds: 0, dated: true }) },
		{ weight: 1, arbitrary: fc.integer({ min: -21_600, max: 21_600 }).map((seconds): ClockApart => ({ seconds, dated: true })) },
		{ weight: 1, arbitrary: fc.integer({ min: -UNDATED_APART_MAX_SECONDS, max: UNDATED_APART_MAX_SECONDS }).map((seconds): ClockApart => ({ seconds, dated: false })) },
	),
	events: fc.constantFrom<HistorySetup['events']>('both', 'both', 'status_changed', 'new_item'),
	// One history in three filters: one status (often approved, a listing of its own) or two.
	statuses: fc.oneof(
		{ weight: 4, arbitrary: fc.constant<Status[]>([]) },
		{ weight: 1, arbitrary: fc.constant<Status[]>(['approved']) },
		{ weight: 1, arbitrary: fc.subarray<Status>([...STATUSES], { minLength: 1, maxLength: 2 }) },
	),
	firstActivation: fc.option(midRead, { nil: undefined, freq: 4 }).map((m) => ({ kind: 'activate' as const, midRead: m })),
});

export const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 5, arbitrary: change.map((c): Step => ({ kind: 'change', change: c })) },
	// A status flip-flop (approved -> reconciliation -> approved): what a filter leaves out, then its return.
	{ weight: 2, arbitrary: fc.nat({ max: 7 }).map((item): Step => ({ kind: 'revert', item })) },
	{ weight: 1, arbitrary: fc.constant<Step>({ kind: 'create' }) },
	{ weight: 1, arbitrary: fc.integer({ min: 1, max: 7_200 }).map((seconds): Step => ({ kind: 'wait', seconds })) },
	{ weight: 1, arbitrary: fc.option(midRead, { nil: undefined }).map((m): Step => ({ kind: 'activate', midRead: m })) },
	{ weight: 4, arbitrary: fc.option(midRead, { nil: undefined, freq: 2 }).map((m): Step => ({ kind: 'tick', midRead: m })) },
	{ weight: 1, arbitrary: midRead.map((m): Step => ({ kind: 'overlappingTicks', midRead: m })) },
	{ weight: 1, arbitrary: listing.map((l): Step => ({ kind: 'failingTick', listing: l })) },
	{ weight: 1, arbitrary: fc.constant<Step>({ kind: 'deactivate' }) },
	{ weight: 1, arbitrary: fc.option(midRead, { nil: undefined, freq: 2 }).map((m): Step => ({ kind: 'deactivateMidRead', midRead: m })) },
	{ weight: 1, arbitrary: fc.constant<Step>({ kind: 'republish' }) },
	{ weight: 1, arbitrary: fc.option(midRead, { nil: undefined, freq: 2 }).map((m): Step => ({ kind: 'republishMidRead', midRead: m })) },
	{ weight: 1, arbitrary: fc.constant<Step>({ kind: 'restart' }) },
	// n8n restarts with this version after an older one: the saved memory in the form that one saved it.
	{ weight: 1, arbitrary: fc.constantFrom<OlderMemory>('beforeWrites', 'beforeWatching', 'beforeSince').map((from): Step => ({ kind: 'upgrade', from })) },
);

const OLDER_MEMORY_TEXT: Record<OlderMemory, string> = {
	beforeWrites: 'before memories were numbered (no `writes`)',
	beforeWatching: 'before memories kept when the trigger started watching (no `watching`)',
	beforeSince: 'before memories kept their read\'s time (no `since`, no `watching`)',
};

const changeText = (c: Change) => `item #${c.item} -> ${c.status}`;
const midReadText = (m?: MidRead) => (m === undefined ? '' : `, ${changeText(m.change)} while the ${m.held} listing is on the wire`);

export function describeStep(step: Step): string {
	switch (step.kind) {
		case 'change':
			return `the marketplace sets ${changeText(step.change)}`;
		case 'revert':
			return `the marketplace sets item #${step.item} back to its status before`;
		case 'create':
			return 'a new item is added';
		case 'wait':
			return `${step.seconds} s pass on the service's clock`;
		case 'activate':
			return `the workflow is activated${midReadText(step.midRead)}`;
		case 'tick':
			return `a Poll Times tick${midReadText(step.midRead)}`;
		case 'overlappingTicks':
			return `two ticks at once${midReadText(step.midRead)}`;
		case 'failingTick':
			return `a tick whose ${step.listing} listing is refused (403)`;
		case 'deactivate':
			return 'the workflow is deactivated';
		case 'deactivateMidRead':
			return `the workflow is deactivated while a tick reads${midReadText(step.midRead)}`;
		case 'republish':
			return 'the active workflow is saved (re-published)';
		case 'republishMidRead':
			return `the workflow is deactivated and activated again while a tick reads${midReadText(step.midRead)}`;
		case 'restart':
			return 'n8n restarts';
		case 'upgrade':
			return `n8n restarts with this version after one from ${OLDER_MEMORY_TEXT[step.from]}`;
	}
}
