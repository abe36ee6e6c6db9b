// What a user of the Item Trigger would state about a history once it settled (the workflow active, quiet ticks
// after the last change), first with no status filter (docs/item-trigger.md). With Events = Status Changed only, an item
// added after the trigger started watching is not announced as new: what the workflow knows of it without an
// announcement is the status a complete poll first read (a change before any poll saw it is the documented loss,
// "A new item changed before any poll saw it"), and no `new_item` is ever announced.
// 1. Nothing lost: every item's last announced status is its status now; an item never announced still has a
//    status it held while the trigger started watching; an item added after that was announced. The same holds
//    after every scheduled poll that read the listings whole, for each item that did not change while it read
//    and that the service lists (its listing delay passed).
// 2. No duplicate, nothing made up: an item's announcements form a chain: each one's previous status is the status
//    the one before announced (the first one's: a status the item held while the trigger started watching), differs
//    from its new status, and that new status is one the item really held since the announcement before.
// 3. `new_item` only for items added after the trigger started watching, and only as an item's first announcement;
//    a previous status left unknown only on the first announcement of an item the trigger's first read did not see
//    (beyond the first pages its activation read, or moving between the listings while it read them), and that no
//    scheduled poll of the same n8n process read since.
// Excused, as documented ("What can be lost"): an item that moved between the listings during two reads in a row may
// be forgotten and announced again from an unknown status (an item added after the trigger started watching: as a
// `new_item` again).
// With Events = New Item only, the same three read: every item added after the trigger started watching is announced
// once as a `new_item` (by the first complete poll that reads it, at the latest), with a status it held by then; no
// other item, and no `status_changed`, is ever announced.
// After an upgrade from an older version's memory (upgrade-excuses.ts), as documented: a memory of complete reads
// without `since` takes an item it does not hold (a read missed or forgot it) for new until the first complete poll
// after the upgrade; without `watching`, the trigger takes the memory's `since` for its start, so an item added before
// that may come out as a change from an unknown status (with New Item only: not at all); a partial baseline without
// `since` takes the items it did not read (new ones too) in silently at its first complete poll, so what the workflow
// knows of them unannounced is any status they held until then.
// With Only When New Status Is, the workflow gets the announcements above whose new status it names, and only those:
// 1 holds for each item whose status (now, or when a complete poll read it) is one it names; in 2, the previous status
// of an announcement may also be one it does not name that the item changed to after the announcement before (a change
// the filter left out); and no `new_item` comes after a complete poll of the same n8n process read the item (the filter
// left it out then: it is no longer new). With New Item only, an item that held only named statuses until the first
// complete poll read it is announced by then.
import type { Announcement, ReadWindow, StatusLedger } from './ledger';
import { upgradeExcuses } from './upgrade-excuses';

export interface Violation {
	invariant: string;
	detail: string;
}

/** The activation reads one page of each listing, of the paginator's size (the sandbox serves 100). */
const FIRST_PAGE_SIZE = 100;

const text = (a: Announcement) => `step ${a.step + 1}: ${a.event} ${a.id} ${a.previous ?? 'null'}->${a.status}${a.previousUnknown ? ' (previous unknown)' : ''}`;

export function checkInvariants(ledger: StatusLedger): Violation[] {
	const violations: Violation[] = [];
	const watch = ledger.watchStart;
	if (watch === undefined) return [{ invariant: 'setup', detail: 'the trigger never started watching' }];
	const unseenByFirstRead = ledger.beyondFirstPages(watch.from, FIRST_PAGE_SIZE);
	const statusChangesOnly = ledger.events === 'status_changed';
	const excusesOf = upgradeExcuses(ledger, watch);
	const filterText = `Only When New Status Is = ${ledger.statuses.join(', ')}`;
	const byItem = new Map<string, Announcement[]>();
	for (const announcement of ledger.announcements) {
		if (!ledger.items.has(announcement.id)) {
			violations.push({ invariant: '2. nothing made up', detail: `${text(announcement)}: no such item` });
			continue;
		}
		byItem.set(announcement.id, [...(byItem.get(announcement.id) ?? []), announcement]);
	}
	for (const [id] of ledger.items) {
		const announced = byItem.get(id) ?? [];
		const createdSeq = ledger.createdSeq(id);
		const addedAfterWatchStart = createdSeq > watch.to;
		const forgettable = ledger.mayHaveBeenForgotten(id);
		const firstReadMayHaveMissed = unseenByFirstRead.has(id) || !ledger.stayedInItsListing(id, watch);
		const { newAgain, takenForOld, takenInSilently } = excusesOf(id, firstReadMayHaveMissed);
		/** Statuses it held while the trigger started watching (none: added after). */
		const atWatchStart = createdSeq > watch.to ? new Set<string>() : (takenInSilently ?? ledger.heldIn(id, Math.max(watch.from, createdSeq), watch.to));
		const now = ledger.statusNow(id);
		/** What the workflow may know of the item, unannounced, at `seq` (see the file comment). */
		const knownUnannounced = (seq: number): Set<string> => {
			if (!addedAfterWatchStart) return atWatchStart;
			if (takenInSilently !== undefined) return takenInSilently;
			if (!statusChangesOnly) return new Set();
			const firstRead = ledger.completeTicks.find((tick) => tick.to <= seq && readsIt(tick));
			return ledger.heldIn(id, createdSeq, firstRead?.to ?? seq);
		};
		const readsIt = (tick: (typeof ledger.completeTicks)[number]) => ledger.readWholeBy(id, tick);
		/** A complete poll of the step's n8n process read the item before that step (it knows the item since). */
		const readBeforeInItsProcess = (step: number) =>
			ledger.completeTicks.some((tick) => tick.step < step && tick.process === ledger.processOfStep[step] && readsIt(tick));
		for (const a of announced) {
			if (!ledger.takes(a.status)) violations.push({ invariant: '3. only the events the workflow takes', detail: `${text(a)} with ${filterText}` });
			if (a.event === 'new_item' && !forgettable && readBeforeInItsProcess(a.step)) {
				violations.push({ invariant: '3. new_item only for an item no poll of the process read before', detail: text(a) });
			}
		}
		if (ledger.events === 'new_item') {
			violations.push(...newItemsOnly(ledger, id, announced, watch, { forgettable, newAgain, notOwed: takenInSilently !== undefined || takenForOld, readsIt }));
			continue;
		}

		// 1. Nothing lost (of what the filter takes).
		const last = announced.at(-1);
		if (!ledger.takes(now)) {
			// Whatever it last announced, the item is now in a status the workflow does not take.
		} else if (last !== undefined && last.status !== now) {
			violations.push({ invariant: '1. nothing lost', detail: `item ${id} is ${now}; its last announcement was ${text(last)}` });
		} else if (last === undefined && addedAfterWatchStart && !knownUnannounced(ledger.seq).has(now)) {
			violations.push({ invariant: '1. nothing lost', detail: `item ${id}, added after the trigger started watching, was never announced (it is ${now})` });
		} else if (last === undefined && !addedAfterWatchStart && !atWatchStart.has(now)) {
			violations.push({ invariant: '1. nothing lost', detail: `item ${id} is ${now}; never announced, it was ${[...atWatchStart].join(' or ')} when the trigger started watching` });
		}

		// 1, after every complete scheduled poll.
		/** Complete polls that read the item, listed, while it held one status: that status. */
		const clearReads = ledger.completeTicks
			.filter((tick) => readsIt(tick) && ledger.heldIn(id, tick.from, tick.to).size === 1)
			.map((tick) => ({ tick, read: ledger.statusNow(id, tick.to) }));
		for (const [index, { tick, read }] of clearReads.entries()) {
			if (!ledger.takes(read)) continue;
			const lastThen = announced.filter((a) => a.step <= tick.step).at(-1);
			const known = lastThen === undefined ? knownUnannounced(tick.to) : new Set([lastThen.status]);
			if (!known.has(read)) {
				violations.push({
					invariant: '1. nothing lost (after a complete poll)',
					detail: `item ${id} was ${read} when the poll of step ${tick.step + 1} read it; ${lastThen ? `its last announcement was ${text(lastThen)}` : 'never announced'}`,
				});
				break;
			}
			// What a poll of the same process read before with another status (perhaps one the filter leaves out) is
			// known to the trigger: the change to this status is announced after that poll.
			const before = clearReads.slice(0, index).reverse().find((earlier) => earlier.tick.process === tick.process && earlier.read !== read);
			if (before !== undefined && !forgettable && !announced.some((a) => a.status === read && a.step > before.tick.step && a.step <= tick.step)) {
				violations.push({
					invariant: '1. nothing lost (a change after a complete poll)',
					detail: `item ${id} was ${before.read} when the poll of step ${before.tick.step + 1} read it and ${read} when the poll of step ${tick.step + 1} did; no announcement of ${read} between`,
				});
				break;
			}
		}

		// 2 and 3, announcement by announcement.
		announced.forEach((a, index) => {
			const before = announced[index - 1];
			if (a.previous !== null && a.previous === a.status) {
				violations.push({ invariant: '2. no duplicate', detail: `${text(a)}: no change` });
			}
			const since = before === undefined ? Math.max(watch.from, createdSeq) : before.from;
			/**
			 * A change the filter left out: a status it does not take that the item changed to after it reached the
			 * status announced before (the first announcement: held since the trigger started watching).
			 */
			const leftOut = before === undefined ? ledger.heldIn(id, since, a.to) : ledger.changedToAfter(id, before.status, before.to, a.to);
			const leftOutBefore = (previous: string) => !ledger.takes(previous) && leftOut.has(previous);
			if (!ledger.heldIn(id, since, a.to).has(a.status)) {
				violations.push({ invariant: '2. nothing made up', detail: `${text(a)}: the item was never ${a.status} since ${before ? `the announcement at step ${before.step + 1}` : 'the trigger started watching'}` });
			}
			if (a.event === 'new_item' && statusChangesOnly) {
				violations.push({ invariant: '3. only the events the workflow takes', detail: `${text(a)} with Events = Status Changed` });
			}
			if (a.previous === null) {
				if (before !== undefined && !forgettable) {
					violations.push({ invariant: '3. previous status known after a first announcement', detail: `${text(a)} after ${text(before)}` });
				}
				// An item added later, with new items filtered out: a restart may have lost the quiet poll that read it.
				const unknownAllowed =
					(firstReadMayHaveMissed && !ledger.readByATickOfTheProcessBefore(id, a.step)) || (addedAfterWatchStart && statusChangesOnly) || takenForOld;
				if (a.event !== 'new_item' && before === undefined && !unknownAllowed && !forgettable) {
					violations.push({ invariant: '3. previous status known once a poll of the process read the item', detail: text(a) });
				}
				if (a.event === 'new_item' && !addedAfterWatchStart && createdSeq <= watch.from && !newAgain(a)) {
					violations.push({ invariant: '3. new_item only for items added after the trigger started watching', detail: `${text(a)}: the item existed before` });
				}
				return;
			}
			if (a.event === 'new_item') violations.push({ invariant: '3. new_item has no previous status', detail: text(a) });
			if (leftOutBefore(a.previous)) return;
			if (before !== undefined && a.previous !== before.status) {
				violations.push({ invariant: '2. no duplicate (a chain)', detail: `${text(a)} follows ${text(before)}` });
			} else if (before === undefined && !knownUnannounced(a.to).has(a.previous)) {
				violations.push({ invariant: '2. no duplicate (a chain)', detail: `${text(a)}: the item was ${[...atWatchStart].join(' or ') || 'not there'} when the trigger started watching` });
			}
		});
	}
	return violations;
}

/** The invariants with Events = New Item only (see the file comment), for one item and its announcements. */
function newItemsOnly(
	ledger: StatusLedger,
	id: string,
	announced: Announcement[],
	watch: ReadWindow,
	{
		forgettable,
		newAgain,
		notOwed,
		readsIt,
	}: { forgettable: boolean; newAgain: (a: Announcement) => boolean; notOwed: boolean; readsIt: (tick: StatusLedger['completeTicks'][number]) => boolean },
): Violation[] {
	const violations: Violation[] = [];
	const createdSeq = ledger.createdSeq(id);
	for (const a of announced) {
		if (a.event !== 'new_item') violations.push({ invariant: '3. only the events the workflow takes', detail: `${text(a)} with Events = New Item` });
		else if (a.previous !== null) violations.push({ invariant: '3. new_item has no previous status', detail: text(a) });
		// Each announcement comes from the read of its own step: a status held then.
		if (!ledger.heldIn(id, a.from, a.to).has(a.status)) {
			violations.push({ invariant: '2. nothing made up', detail: `${text(a)}: the item was not ${a.status} during that step` });
		}
	}
	if (announced.length > 1 && !forgettable) {
		violations.push({ invariant: '2. no duplicate', detail: `${text(announced[1])} after ${text(announced[0])}` });
	}
	if (createdSeq <= watch.from) {
		const unexcused = announced.find((a) => !newAgain(a));
		if (unexcused) violations.push({ invariant: '3. new_item only for items added after the trigger started watching', detail: `${text(unexcused)}: the item existed before` });
		return violations;
	}
	// Added while the first activation read (not drawn today: a creation is a step of its own): either way is right.
	if (createdSeq <= watch.to || notOwed) return violations;
	const firstReader = ledger.completeTicks.find((tick) => readsIt(tick));
	// With Only When New Status Is: owed only when every status it held until that poll read it is one the filter takes.
	if (ledger.statuses.length > 0 && (firstReader === undefined || ![...ledger.heldIn(id, createdSeq, firstReader.to)].every((s) => ledger.takes(s)))) return violations;
	if (announced.length === 0) {
		violations.push({ invariant: '1. nothing lost', detail: `item ${id}, added after the trigger started watching, was never announced (it is ${ledger.statusNow(id)})` });
	}
	if (firstReader !== undefined && !announced.some((a) => a.step <= firstReader.step)) {
		violations.push({ invariant: '1. nothing lost (after a complete poll)', detail: `item ${id} was read by the poll of step ${firstReader.step + 1} and not announced by then` });
	}
	return violations;
}
