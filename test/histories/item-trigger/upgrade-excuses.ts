// What an upgrade (steps.ts `upgrade`, older-memory.ts) excuses, item by item, and for how long: only the costs
// docs/item-trigger.md documents for a memory an older version of the node saved.
import type { Announcement, ReadWindow, StatusLedger } from './ledger';

export interface ItemUpgradeExcuses {
	/**
	 * A `new_item` for an item from before the trigger started watching, made by a memory of complete reads without
	 * `since` that does not hold it (a read missed or forgot it): until the first complete poll after the upgrade.
	 */
	newAgain(announcement: Announcement): boolean;
	/**
	 * Added after the trigger started watching but before the later start the upgrade's memory gives it (its `since`,
	 * or without one, the first complete poll's), changed since, and read by no complete poll before (the saved memory
	 * may not hold it): its first announcement may be a change from an unknown status, and with New Item only it is not
	 * owed. (A complete poll before the upgrade that read it owed it then; without `since`, the first complete poll
	 * after it takes it for new.)
	 */
	takenForOld: boolean;
	/** Taken in silently by a partial baseline without `since` at its first complete poll: every status it held until then. */
	takenInSilently: Set<string> | undefined;
}

const NONE: ItemUpgradeExcuses = { newAgain: () => false, takenForOld: false, takenInSilently: undefined };

/** `firstReadMayHaveMissed`: the item may not have been seen by the read the trigger started watching with. */
export function upgradeExcuses(ledger: StatusLedger, watch: ReadWindow): (id: string, firstReadMayHaveMissed: boolean) => ItemUpgradeExcuses {
	const upgrade = ledger.upgrade;
	if (upgrade === undefined) return () => NONE;
	const completeReads = [...ledger.completeActivations, ...ledger.completeTicks].sort((a, b) => a.step - b.step);
	/** The first poll after the upgrade that read the listings whole (the upgrade's own start-up read, on a small catalogue). */
	const firstComplete = completeReads.find((read) => read.step >= upgrade.step);
	const withinFirstPoll = (a: Announcement) => a.step >= upgrade.step && (firstComplete === undefined || a.step <= firstComplete.step);
	/** The latest the stand-in start can be, as a counter: the saved memory's read, or without `since`, the first complete poll's. */
	const standIn = upgrade.unheldNewUntilFirstPoll || upgrade.partialWithoutSince ? (firstComplete?.from ?? ledger.seq) : upgrade.savedReadFrom;
	/** Read whole by a poll before the upgrade, or without `since`, by the first complete poll after it. */
	const owedBy = (id: string) =>
		completeReads.some((read) => (read.step < upgrade.step || (upgrade.unheldNewUntilFirstPoll && read === firstComplete)) && ledger.readWholeBy(id, read));
	return (id, firstReadMayHaveMissed) => {
		const createdSeq = ledger.createdSeq(id);
		const addedAfterWatchStart = createdSeq > watch.to;
		// Not held by the saved memory: forgotten before the upgrade, or missed by the read the trigger started with.
		const missedOrForgotten = ledger.mayHaveBeenForgotten(id, upgrade.seq) || !ledger.stayedInItsListing(id, watch);
		const silentTaker = upgrade.partialWithoutSince ? firstComplete : undefined;
		const silent = silentTaker !== undefined && (addedAfterWatchStart ? createdSeq <= silentTaker.from : firstReadMayHaveMissed);
		return {
			newAgain: (a) => upgrade.unheldNewUntilFirstPoll && missedOrForgotten && withinFirstPoll(a),
			takenForOld: upgrade.startMovedLater && addedAfterWatchStart && createdSeq <= standIn && ledger.changedAfter(id, standIn) && !owedBy(id),
			takenInSilently: silent ? ledger.heldIn(id, Math.max(watch.from, createdSeq), silentTaker.to) : undefined,
		};
	};
}
