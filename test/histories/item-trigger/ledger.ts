// What happened in an Item Trigger history, as the invariants need it: every item's statuses in order (each change
// numbered on one counter, `seq`), the windows in which the trigger read (from the counter before a step's read
// began to the counter after it ended), and every announcement with the window of the step that made it.
import type { UpgradeLoss } from './older-memory';

export interface Announcement {
	id: string;
	event: string;
	previous: string | null;
	previousUnknown: boolean;
	status: string;
	/** Index of the step (the settling ticks come after the history's steps). */
	step: number;
	/** The counter before and after the step: every change it saw happened in (from, to]. */
	from: number;
	to: number;
}

interface ItemLife {
	/** 0: it existed before the history began. */
	createdSeq: number;
	/** The model's clock (seconds) at its creation. */
	createdAt: number;
	/** Its statuses in order, the first from its creation (or the history's start). */
	statuses: Array<{ seq: number; status: string }>;
}

/** The window of a step that read the listings: from the counter before it began to the counter after it ended. */
export interface ReadWindow {
	from: number;
	to: number;
}

/** A margin for the seconds the steps themselves take, which the model's clock does not count. */
const UNCOUNTED_SECONDS = 30;

const listingOf = (status: string) => (status === 'approved' ? 'approved' : 'non_approved');

export class StatusLedger {
	seq = 0;
	/** The workflow's Events (the trigger's filter). */
	events: 'both' | 'status_changed' | 'new_item' = 'both';
	/** The workflow's Only When New Status Is (empty: any status). */
	statuses: string[] = [];
	/** The service lists a new item this long after its creation. */
	listingDelaySeconds = 0;
	/** Seconds passed in the history (the steps that move the clock; the seconds the steps take are not counted). */
	clock = 0;
	readonly items = new Map<string, ItemLife>();
	readonly announcements: Announcement[] = [];
	readonly reads: ReadWindow[] = [];
	/** The first activation that succeeded: the trigger started watching there. */
	watchStart: ReadWindow | undefined;
	/** Scheduled polls that read both listings to their end without failing, with the n8n process they ran in. */
	readonly completeTicks: Array<ReadWindow & { step: number; process: number; clock: number }> = [];
	/** The n8n process each step ran in (a restart starts a new one). */
	readonly processOfStep: number[] = [];
	/** Activations that read both listings whole (a small catalogue): a restart's compares them with the saved memory. */
	readonly completeActivations: Array<ReadWindow & { step: number; clock: number }> = [];
	/**
	 * n8n restarted with this version over a memory an older one saved (older-memory.ts): at which step and counter,
	 * what the memory lost, and the counter before the last step after which n8n saved a memory (the saved memory's
	 * `since` is no later; an earlier unsaved poll's memory saved by a re-activation makes it later than need be).
	 */
	upgrade: (UpgradeLoss & { step: number; seq: number; savedReadFrom: number }) | undefined;

	/** The catalogue as it is when the history begins. */
	existing(id: string, status: string): void {
		this.items.set(id, { createdSeq: 0, createdAt: Number.NEGATIVE_INFINITY, statuses: [{ seq: 0, status }] });
	}

	created(id: string, status: string): void {
		const seq = ++this.seq;
		this.items.set(id, { createdSeq: seq, createdAt: this.clock, statuses: [{ seq, status }] });
	}

	changed(id: string, status: string): void {
		this.items.get(id)!.statuses.push({ seq: ++this.seq, status });
	}

	/** Whether Only When New Status Is takes an item whose status is now `status`. */
	takes(status: string): boolean {
		return this.statuses.length === 0 || this.statuses.includes(status);
	}

	/** Its status now, or at `seq`. */
	statusNow(id: string, seq = this.seq): string {
		return [...this.heldIn(id, seq, seq)][0];
	}

	/**
	 * The statuses the item changed to after it last reached `status` by `reachedBy`, up to `to` (all its changes in
	 * (from, to] when it did not hold `status` then).
	 */
	changedToAfter(id: string, status: string, reachedBy: number, to: number): Set<string> {
		const statuses = this.items.get(id)?.statuses ?? [];
		const reached = statuses.filter((entry) => entry.seq <= reachedBy && entry.status === status).at(-1)?.seq ?? 0;
		return new Set(statuses.filter((entry) => entry.seq > reached && entry.seq <= to).map((entry) => entry.status));
	}

	/** The status it had before its last change (undefined: it never changed). */
	statusBefore(id: string): string | undefined {
		return this.items.get(id)?.statuses.at(-2)?.status;
	}

	createdSeq(id: string): number {
		return this.items.get(id)?.createdSeq ?? 0;
	}

	/** Seconds between the item's creation and `clock`. */
	ageAt(id: string, clock: number): number {
		return clock - (this.items.get(id)?.createdAt ?? 0);
	}

	/** The statuses the item held at some moment in [from, to]: the one at `from`, and every change up to `to`. */
	heldIn(id: string, from: number, to: number): Set<string> {
		const held = new Set<string>();
		for (const { seq, status } of this.items.get(id)?.statuses ?? []) {
			if (seq <= from) {
				held.clear();
				held.add(status);
			} else if (seq <= to) held.add(status);
		}
		return held;
	}

	/**
	 * Items the activation's read (the first page of each listing) did not reach at `seq`: the sandbox lists by
	 * ascending item_id, `pageSize` per page.
	 */
	beyondFirstPages(seq: number, pageSize: number): Set<string> {
		const listings = new Map<string, string[]>();
		for (const [id] of this.items) {
			if (this.createdSeq(id) > seq) continue;
			const status = [...this.heldIn(id, seq, seq)][0];
			const listing = listingOf(status);
			listings.set(listing, [...(listings.get(listing) ?? []), id]);
		}
		const beyond = new Set<string>();
		for (const ids of listings.values()) ids.sort((a, b) => Number(a) - Number(b)).slice(pageSize).forEach((id) => beyond.add(id));
		return beyond;
	}

	/** The item did not move from one listing to the other during `read`. */
	stayedInItsListing(id: string, read: ReadWindow): boolean {
		return this.movesDuring(id, read) === 0;
	}

	private movesDuring(id: string, read: ReadWindow): number {
		const statuses = this.items.get(id)?.statuses ?? [];
		return statuses.filter((entry, index) => index > 0 && entry.seq > read.from && entry.seq <= read.to && listingOf(entry.status) !== listingOf(statuses[index - 1].status)).length;
	}

	/**
	 * Whether a scheduled poll read the item (it existed and stayed in its listing) after the trigger started watching,
	 * before `step`, in the same n8n process: that process knows the item's status from then on (also across a
	 * re-activation; a restart loses what quiet polls saw, docs/item-trigger.md).
	 */
	readByATickOfTheProcessBefore(id: string, step: number): boolean {
		const process = this.processOfStep[step];
		return this.completeTicks.some(
			(tick) => tick.step < step && tick.process === process && this.createdSeq(id) <= tick.from && this.stayedInItsListing(id, tick),
		);
	}

	/**
	 * Two reads in a row during which the item moved from one listing to the other: each may have missed it (seen in
	 * neither listing), which docs/item-trigger.md says makes the trigger forget it.
	 */
	mayHaveBeenForgotten(id: string, beforeSeq = Number.POSITIVE_INFINITY): boolean {
		return this.reads.some((read, index) => index > 0 && read.to <= beforeSeq && this.movesDuring(id, read) > 0 && this.movesDuring(id, this.reads[index - 1]) > 0);
	}

	/**
	 * A read of both listings whole, at the model's `clock`, shows the item: it existed when the read began, stayed in
	 * its listing while it ran, and the listing delay had passed (plus the seconds the steps take, which the clock does
	 * not count).
	 */
	readWholeBy(id: string, read: ReadWindow & { clock: number }): boolean {
		return (
			this.createdSeq(id) <= read.from &&
			this.stayedInItsListing(id, read) &&
			(this.listingDelaySeconds === 0 || this.ageAt(id, read.clock) >= this.listingDelaySeconds + UNCOUNTED_SECONDS)
		);
	}

	/** The item changed status after `seq`. */
	changedAfter(id: string, seq: number): boolean {
		return (this.items.get(id)?.statuses ?? []).some((entry, index) => index > 0 && entry.seq > seq);
	}
}
