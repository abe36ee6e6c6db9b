import { diffStatuses, type ListedItem } from '../../nodes/ConsignmentVendorItemTrigger/statusDiff';
import type { StatusMemory } from '../../nodes/ConsignmentVendorItemTrigger/statusMemory';

const listed = (id: string, status: string, extra: Record<string, unknown> = {}): ListedItem => ({
	id,
	status,
	record: { item_id: Number(id), vendor_sku: `SKU-${id}`, ...extra },
});

const memory = (entries: Array<[string, string, boolean?]>): StatusMemory =>
	new Map(entries.map(([id, status, missing]) => [id, { status, missing: missing === true }]));

const summary = (events: ReturnType<typeof diffStatuses>['events']) =>
	events.map((e) => `${e.event} ${e.id} ${String(e.previousStatus)}->${e.status}`);

describe('the first poll (no memory)', () => {
	it('remembers every item and announces nothing (baseline)', () => {
		const { events, next } = diffStatuses(undefined, [listed('1', 'pending'), listed('2', 'approved')]);
		expect(events).toEqual([]);
		expect(next).toEqual(memory([['1', 'pending'], ['2', 'approved']]));
	});
});

describe('later polls', () => {
	const previous = memory([['1', 'pending'], ['2', 'approved'], ['3', 'rejected']]);

	it('announces a status change from -> to with the item as listed, and a new item with no previous status', () => {
		const { events, next } = diffStatuses(previous, [
			listed('1', 'approved', { designer: 'Chanel' }),
			listed('2', 'approved'),
			listed('3', 'rejected'),
			listed('4', 'pending'),
		]);
		expect(summary(events)).toEqual(['status_changed 1 pending->approved', 'new_item 4 null->pending']);
		expect(events[0].record).toEqual({ item_id: 1, vendor_sku: 'SKU-1', designer: 'Chanel' });
		expect(next).toEqual(memory([['1', 'approved'], ['2', 'approved'], ['3', 'rejected'], ['4', 'pending']]));
	});

	it('announces nothing when nothing changed, and the memory stays the same', () => {
		const { events, next } = diffStatuses(previous, [listed('1', 'pending'), listed('2', 'approved'), listed('3', 'rejected')]);
		expect(events).toEqual([]);
		expect(next).toEqual(previous);
	});

	it('the same change is announced once: the next poll compares with the memory that includes it', () => {
		const first = diffStatuses(previous, [listed('1', 'approved'), listed('2', 'approved'), listed('3', 'rejected')]);
		const second = diffStatuses(first.next, [listed('1', 'approved'), listed('2', 'approved'), listed('3', 'rejected')]);
		expect(summary(first.events)).toEqual(['status_changed 1 pending->approved']);
		expect(second.events).toEqual([]);
	});

	it('an item seen in both listings (approved while they were read) counts as last seen', () => {
		// Read order: non-approved first (still pending there), then approved.
		const { events, next } = diffStatuses(previous, [listed('1', 'pending'), listed('1', 'approved'), listed('2', 'approved'), listed('3', 'rejected')]);
		expect(summary(events)).toEqual(['status_changed 1 pending->approved']);
		expect(next.get('1')).toEqual({ status: 'approved', missing: false });
	});

	it('read side by side, the newer sighting (later updated_at) counts even when it arrived first', () => {
		const at = (minute: number) => Date.parse(`2026-11-27T10:${String(minute).padStart(2, '0')}:00Z`);
		// Approved at 10:05: the approved listing's page (made after) arrived before the non-approved one (made before).
		const approvedSighting: ListedItem = { ...listed('1', 'approved'), updatedAt: at(5), listing: 1, position: 0 };
		const pendingSighting: ListedItem = { ...listed('1', 'pending'), updatedAt: at(0), listing: 0, position: 0 };
		const { events, next } = diffStatuses(previous, [approvedSighting, pendingSighting, listed('2', 'approved'), listed('3', 'rejected')]);
		expect(summary(events)).toEqual(['status_changed 1 pending->approved']);
		expect(next.get('1')).toEqual({ status: 'approved', missing: false });
		// Without updated_at, the sighting that arrived last counts.
		expect(summary(diffStatuses(previous, [listed('1', 'approved'), listed('1', 'pending')]).events)).toEqual([]);
	});

	it('events come in the order of the listings (non-approved first), whichever page arrived first', () => {
		const { events } = diffStatuses(previous, [
			{ ...listed('2', 'deleted'), listing: 1, position: 4 },
			{ ...listed('3', 'pending'), listing: 0, position: 9 },
			{ ...listed('1', 'approved'), listing: 1, position: 0 },
		]);
		expect(summary(events)).toEqual(['status_changed 3 rejected->pending', 'status_changed 1 pending->approved', 'status_changed 2 approved->deleted']);
	});

	it('an earlier sighting\'s change is void when the later one shows the remembered status', () => {
		const { events } = diffStatuses(previous, [listed('2', 'deleted'), listed('2', 'approved'), listed('1', 'pending'), listed('3', 'rejected')]);
		expect(events).toEqual([]);
	});

	it('an item missing from one read is kept (no event when it comes back); missing twice, it is dropped', () => {
		const once = diffStatuses(previous, [listed('1', 'pending'), listed('3', 'rejected')]);
		expect(once.events).toEqual([]);
		expect(once.next.get('2')).toEqual({ status: 'approved', missing: true });

		const back = diffStatuses(once.next, [listed('1', 'pending'), listed('2', 'approved'), listed('3', 'rejected')]);
		expect(back.events).toEqual([]);
		expect(back.next.get('2')).toEqual({ status: 'approved', missing: false });

		const twice = diffStatuses(once.next, [listed('1', 'pending'), listed('3', 'rejected')]);
		expect(twice.events).toEqual([]);
		expect(twice.next.has('2')).toBe(false);
		// Once dropped, an item that shows up again is new.
		expect(summary(diffStatuses(twice.next, [listed('2', 'approved')]).events)).toEqual(['new_item 2 null->approved']);
	});

	it('a missing item that comes back with another status is a change from the remembered one', () => {
		const once = diffStatuses(previous, [listed('1', 'pending'), listed('3', 'rejected')]);
		const back = diffStatuses(once.next, [listed('1', 'pending'), listed('2', 'deleted'), listed('3', 'rejected')]);
		expect(summary(back.events)).toEqual(['status_changed 2 approved->deleted']);
	});

	it('tracks statuses the contract does not list (draft, or anything new)', () => {
		const { events } = diffStatuses(memory([['1', 'draft']]), [listed('1', 'on_hold')]);
		expect(summary(events)).toEqual(['status_changed 1 draft->on_hold']);
	});
});

describe('after a partial baseline (the activation read the first page of each listing)', () => {
	const partial = memory([['1', 'pending'], ['2', 'approved']]);

	it('an item it did not see is taken in silently; changes to those it saw are announced; the result is a complete memory', () => {
		const { events, next } = diffStatuses(partial, [listed('1', 'approved'), listed('2', 'approved'), listed('3', 'pending')], { partial: true });
		expect(summary(events)).toEqual(['status_changed 1 pending->approved']);
		expect(next).toEqual(memory([['1', 'approved'], ['2', 'approved'], ['3', 'pending']]));
		// The next poll compares with a complete memory: a new item is new again.
		expect(summary(diffStatuses(next, [listed('1', 'approved'), listed('2', 'approved'), listed('3', 'pending'), listed('4', 'pending')]).events)).toEqual([
			'new_item 4 null->pending',
		]);
	});

	it('an item of the partial baseline missing from the complete read is kept one more poll, as any other', () => {
		const { next } = diffStatuses(partial, [listed('1', 'pending')], { partial: true });
		expect(next.get('2')).toEqual({ status: 'approved', missing: true });
	});
});

describe('changes after the trigger started watching, to items a partial baseline did not read', () => {
	const partial = memory([['1', 'pending']]);
	const since = Date.parse('2026-11-27T10:00:00Z');
	const at = (iso: string) => Date.parse(iso);
	const timed = (id: string, status: string, created: string, updated: string): ListedItem => ({
		...listed(id, status),
		createdAt: at(created),
		updatedAt: at(updated),
	});
	const full = (events: ReturnType<typeof diffStatuses>['events']) =>
		events.map((e) => `${summary([e])[0]}${e.previousStatusUnknown === true ? ' (previous unknown)' : ''}`);

	it('created at or after `since`: new; updated at or after it: a change from an unknown status; older: taken in silently', () => {
		const { events, next } = diffStatuses(
			partial,
			[
				listed('1', 'pending'),
				timed('2', 'approved', '2026-11-01T00:00:00Z', '2026-11-27T10:00:00Z'),
				timed('3', 'pending', '2026-11-27T10:00:05Z', '2026-11-27T10:00:05Z'),
				timed('4', 'rejected', '2026-11-01T00:00:00Z', '2026-11-27T09:59:59Z'),
			],
			{ partial: true, since },
		);
		expect(full(events)).toEqual(['status_changed 2 null->approved (previous unknown)', 'new_item 3 null->pending']);
		expect(next.get('4')).toEqual({ status: 'rejected', missing: false });
	});

	it('without readable timestamps, or from a baseline of an older version (no `since`), an unread item is taken in silently', () => {
		expect(diffStatuses(partial, [listed('2', 'approved')], { partial: true, since }).events).toEqual([]);
		expect(diffStatuses(partial, [timed('2', 'approved', '2026-11-27T11:00:00Z', '2026-11-27T11:00:00Z')], { partial: true }).events).toEqual([]);
	});
});

describe('after a complete baseline or later: an item the memory does not hold, created before the trigger started watching (`watching`)', () => {
	const complete = memory([['1', 'pending']]);
	const watching = Date.parse('2026-11-27T10:00:00Z');
	const since = Date.parse('2026-11-27T12:00:00Z');
	const timed = (id: string, status: string, created: string, updated: string): ListedItem => ({
		...listed(id, status),
		createdAt: Date.parse(created),
		updatedAt: Date.parse(updated),
	});
	const full = (events: ReturnType<typeof diffStatuses>['events']) =>
		events.map((e) => `${summary([e])[0]}${e.previousStatusUnknown === true ? ' (previous unknown)' : ''}`);

	it('updated since: a read missed it (it moved between the listings), a change from an unknown status; otherwise new, as before', () => {
		const { events } = diffStatuses(
			complete,
			[
				listed('1', 'pending'),
				timed('2', 'approved', '2026-11-01T00:00:00Z', '2026-11-27T11:00:00Z'),
				timed('3', 'pending', '2026-11-27T10:30:00Z', '2026-11-27T10:30:00Z'),
				// Never updated since watching began: listed late, or the clocks apart; a new item as it always was.
				timed('4', 'rejected', '2026-11-01T00:00:00Z', '2026-11-27T09:00:00Z'),
			],
			{ since, watching },
		);
		expect(full(events)).toEqual(['status_changed 2 null->approved (previous unknown)', 'new_item 3 null->pending', 'new_item 4 null->rejected']);
	});

	it('without readable times, or with no `watching` (a memory of a version before `since`), it is new as before', () => {
		expect(summary(diffStatuses(complete, [listed('2', 'approved')], { since, watching }).events)).toEqual(['new_item 2 null->approved']);
		expect(summary(diffStatuses(complete, [timed('2', 'approved', '2026-11-01T00:00:00Z', '2026-11-27T11:00:00Z')], { since }).events)).toEqual([
			'new_item 2 null->approved',
		]);
	});
});

describe('compared with a memory an earlier n8n process saved (inherited)', () => {
	const saved = memory([['1', 'pending']]);
	const since = Date.parse('2026-11-27T10:00:00Z');
	const item = (updated: string): ListedItem => ({
		...listed('2', 'approved'),
		createdAt: Date.parse('2026-11-27T10:05:00Z'),
		updatedAt: Date.parse(updated),
	});

	it('a new item updated after its creation (and after `since`) may hide a change an unsaved poll saw: it says so', () => {
		const [event] = diffStatuses(saved, [item('2026-11-27T10:07:00Z')], { since, inherited: true }).events;
		expect([event.event, event.unseenChange]).toEqual(['new_item', true]);
	});

	it('not when it was not updated after its creation, nor when the memory is this process\'s own', () => {
		expect(diffStatuses(saved, [item('2026-11-27T10:05:00Z')], { since, inherited: true }).events[0].unseenChange).toBeUndefined();
		expect(diffStatuses(saved, [item('2026-11-27T10:07:00Z')], { since }).events[0].unseenChange).toBeUndefined();
	});
});
