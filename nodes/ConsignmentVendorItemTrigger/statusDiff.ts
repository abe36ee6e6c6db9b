/**
 * Pure, fed record by record as pages arrive, so a poll never holds the whole catalogue. Rules beyond the obvious:
 * - an item seen twice in one read (it moved between the listings meanwhile) counts as its newer sighting: the one
 *   with the later `updated_at` (the two listings are read side by side, so the page read later is not always the
 *   one made later), or on a tie or without one, the one that arrived last;
 * - an item the read did not show is kept, marked missing, for one more poll, then dropped: an item moving between
 *   the listings while they are read can be missed by both, and dropping it at once would announce it as new when
 *   it shows up again. (The contract has no "removed" event: a deletion is the status `deleted`, a change.)
 * - the first poll (no memory) only takes a baseline;
 * - after a partial baseline (the activation read only the first page of each listing), an item it did not see was
 *   not read yet: created at or after the memory's `since` (when the trigger started watching, on the service's
 *   clock) it is a `new_item`; otherwise updated at or after it, it changed since then, from a status nobody read: a
 *   `status_changed` whose previous status is unknown (and says so); otherwise it is taken in silently;
 * - otherwise (a complete baseline, or a memory of complete reads after it), an item the memory does not hold that the
 *   service says was created before the trigger started watching (the memory's `watching`) and updated since is no
 *   new item: a read missed it, moving between the listings while they were read (the baseline has no memory to keep
 *   it in; the read after a partial baseline did not hold it yet; or it was missing twice and forgotten). It is a
 *   `status_changed` whose previous status is unknown. (Found by the generated histories, test/histories/item-trigger,
 *   and met once by the e2e suite's n8n 2.41.1 under load.) Any other item the memory does not hold is new: created
 *   since, listed late, or without readable times;
 * - compared with a memory an earlier n8n process saved (`inherited`), an item not in it may have been seen by that
 *   process's quiet polls (n8n saves no memory after a poll that emits nothing) and changed since: when it was
 *   updated after its creation, and at or after the memory's `since`, its `new_item` says `unseenChange`, so that a
 *   workflow that does not take new items hears of it as a change whose previous status is unknown.
 */
import type { IDataObject } from 'n8n-workflow';

import type { StatusMemory } from './statusMemory';

export type ItemEventName = 'status_changed' | 'new_item';

export interface ListedItem {
	/** item_id as text. */
	id: string;
	status: string;
	record: IDataObject;
	/** `created_at` / `updated_at` in ms (service clock); undefined when missing or unreadable. */
	createdAt?: number;
	updatedAt?: number;
	/** Which listing (0 non-approved, 1 approved) and where in it: the order events are given in. */
	listing?: number;
	position?: number;
}

export interface ItemEvent {
	event: ItemEventName;
	id: string;
	previousStatus: string | null;
	/** A `status_changed` from a status no read saw (previousStatus is then null). */
	previousStatusUnknown?: boolean;
	/** A `new_item` that may also have changed status since an unsaved read saw it (see the file comment). */
	unseenChange?: boolean;
	status: string;
	record: IDataObject;
}

export interface DiffOptions {
	/** `previous` is a partial baseline. */
	partial?: boolean;
	/** The memory's `since` (statusMemory.ts); undefined in memories of older versions. */
	since?: number;
	/** When the trigger started watching (statusMemory.ts `watching`, or an older memory's `since`); undefined in memories without either. */
	watching?: number;
	/** `previous` was saved by an earlier n8n process, possibly before reads it did not save. */
	inherited?: boolean;
}

interface DiffResult {
	/** In the order the listings gave them: the non-approved listing's, then the approved listing's. */
	events: ItemEvent[];
	next: StatusMemory;
}

export class StatusDiff {
	private readonly seen: StatusMemory = new Map();
	private readonly events = new Map<string, ItemEvent>();
	/** Per item seen in this read: the `updated_at` of the sighting that counts (-Infinity: unknown). */
	private readonly sightedAt = new Map<string, number>();
	/** Per event: where its sighting was in the listings. */
	private readonly eventOrder = new Map<string, number>();
	private arrivals = 0;

	/** `previous` undefined: the first poll (baseline). */
	constructor(
		private readonly previous: StatusMemory | undefined,
		private readonly options: DiffOptions = {},
	) {}

	observe(item: ListedItem): void {
		const arrival = this.arrivals++;
		const kept = this.sightedAt.get(item.id);
		// Seen already, newer: this sighting is the item before it moved to the other listing.
		if (kept !== undefined && item.updatedAt !== undefined && item.updatedAt < kept) return;
		this.sightedAt.set(item.id, item.updatedAt ?? Number.NEGATIVE_INFINITY);
		this.seen.set(item.id, { status: item.status, missing: false });
		if (this.previous === undefined) return;
		const before = this.previous.get(item.id);
		let event: ItemEvent | undefined;
		if (before === undefined) event = this.unremembered(item);
		else if (before.status !== item.status) {
			event = { event: 'status_changed', id: item.id, previousStatus: before.status, status: item.status, record: item.record };
		}
		// No event: an earlier sighting's event (the item before it moved back to its remembered status) is void.
		if (event === undefined) {
			this.events.delete(item.id);
			this.eventOrder.delete(item.id);
			return;
		}
		this.events.set(item.id, event);
		this.eventOrder.set(item.id, item.listing === undefined || item.position === undefined ? arrival : item.listing * 2 ** 40 + item.position);
	}

	/** The event of an item the memory does not hold (see the file comment), or undefined for none. */
	private unremembered(item: ListedItem): ItemEvent | undefined {
		const { partial = false, since, watching, inherited = false } = this.options;
		const atOrAfterSince = (time: number | undefined) => time !== undefined && since !== undefined && time >= since;
		const base = { id: item.id, previousStatus: null, status: item.status, record: item.record };
		const changeFromUnknown: ItemEvent = { ...base, event: 'status_changed', previousStatusUnknown: true };
		if (partial && !atOrAfterSince(item.createdAt)) {
			// Not read by the partial baseline: silent unless it changed after the trigger started watching.
			return atOrAfterSince(item.updatedAt) ? changeFromUnknown : undefined;
		}
		const missedByARead =
			!partial && watching !== undefined && item.createdAt !== undefined && item.createdAt < watching && item.updatedAt !== undefined && item.updatedAt >= watching;
		if (missedByARead) return changeFromUnknown;
		const changedAfterCreation =
			item.updatedAt !== undefined && item.createdAt !== undefined && item.updatedAt > item.createdAt && (since === undefined || item.updatedAt >= since);
		return inherited && changedAfterCreation ? { ...base, event: 'new_item', unseenChange: true } : { ...base, event: 'new_item' };
	}

	finish(): DiffResult {
		const next = this.seen;
		for (const [id, before] of this.previous ?? []) {
			if (!next.has(id) && !before.missing) next.set(id, { status: before.status, missing: true });
		}
		const order = (id: string) => this.eventOrder.get(id) ?? 0;
		return { events: [...this.events.values()].sort((a, b) => order(a.id) - order(b.id)), next };
	}
}

/** The whole diff at once (what the trigger computes page by page with StatusDiff). */
export function diffStatuses(previous: StatusMemory | undefined, current: Iterable<ListedItem>, options: DiffOptions = {}): DiffResult {
	const diff = new StatusDiff(previous, options);
	for (const item of current) diff.observe(item);
	return diff.finish();
}
