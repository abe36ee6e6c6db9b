/**
 * Pure, fed record by record as pages arrive, so a poll never holds the whole catalogue. Rules beyond the obvious:
 * - an item seen twice in one read (it moved between the listings meanwhile) counts as last seen;
 * - an item the read did not show is kept, marked missing, for one more poll, then dropped: an item moving between
 *   the listings while they are read can be missed by both, and dropping it at once would announce it as new when
 *   it shows up again. (The contract has no "removed" event: a deletion is the status `deleted`, a change.)
 * - the first poll (no memory) only takes a baseline;
 * - after a partial baseline (the activation read only the first page of each listing), an item it did not see is
 *   taken in silently: it is not new, it was not read yet.
 */
import type { IDataObject } from 'n8n-workflow';

import type { StatusMemory } from './statusMemory';

export type ItemEventName = 'status_changed' | 'new_item';

export interface ListedItem {
	/** item_id as text. */
	id: string;
	status: string;
	record: IDataObject;
}

export interface ItemEvent {
	event: ItemEventName;
	id: string;
	previousStatus: string | null;
	status: string;
	record: IDataObject;
}

interface DiffResult {
	/** In the order the items were first seen. */
	events: ItemEvent[];
	next: StatusMemory;
}

export class StatusDiff {
	private readonly seen: StatusMemory = new Map();
	private readonly events = new Map<string, ItemEvent>();

	/** `previous` undefined: the first poll (baseline). `partial`: `previous` is a partial baseline. */
	constructor(
		private readonly previous: StatusMemory | undefined,
		private readonly partial = false,
	) {}

	observe(item: ListedItem): void {
		this.seen.set(item.id, { status: item.status, missing: false });
		if (this.previous === undefined) return;
		const before = this.previous.get(item.id);
		if (before === undefined) {
			if (this.partial) return;
			this.events.set(item.id, { event: 'new_item', id: item.id, previousStatus: null, status: item.status, record: item.record });
		} else if (before.status !== item.status) {
			this.events.set(item.id, { event: 'status_changed', id: item.id, previousStatus: before.status, status: item.status, record: item.record });
		} else {
			// Seen again in the later listing with its remembered status: an earlier sighting's event is void.
			this.events.delete(item.id);
		}
	}

	finish(): DiffResult {
		const next = this.seen;
		for (const [id, before] of this.previous ?? []) {
			if (!next.has(id) && !before.missing) next.set(id, { status: before.status, missing: true });
		}
		return { events: [...this.events.values()], next };
	}
}

/** The whole diff at once (what the trigger computes page by page with StatusDiff). */
export function diffStatuses(previous: StatusMemory | undefined, current: Iterable<ListedItem>, partial = false): DiffResult {
	const diff = new StatusDiff(previous, partial);
	for (const item of current) diff.observe(item);
	return diff.finish();
}
