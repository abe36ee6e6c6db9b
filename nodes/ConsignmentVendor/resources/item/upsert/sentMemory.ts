/**
 * Upsert's "Only Send What Changed", per SKU in the node's static data. n8n saves static data after production
 * executions only, not manual test runs, so this is the memory of the production runs.
 * A row is skipped only when its fingerprint is CONFIRMED (the service showed the item). A creation answered
 * "submitted" is only SUBMITTED: the service may still refuse it (`invalid_item_upload`), so it is not skipped until
 * the listings show it, and is sent again when they do not.
 * Dropping an entry is always safe: the row is sent again, found by SKU, so an update, never a duplicate.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

const STATIC_DATA_KEY = 'sentItems';
/** When the rows it skips were last checked against the service (epoch ms). */
const VERIFIED_AT_KEY = 'sentItemsVerifiedAt';
/** How often the skipped rows are checked: an item deleted or changed at the service is seen within this time. */
export const VERIFY_EVERY_MS = 6 * 3_600_000;
/** The memory of versions that remembered creations as sent; never trusted (see `SentMemory.of`). */
const UNCONFIRMED_LEGACY_KEY = 'sentFingerprints';

/** About 3.5 MB: n8n reads and writes static data with the workflow row on every production run. */
export const MAX_ENTRIES = 100_000;

/** An entry is its state's letter then the fingerprint: compact, as it is stored once per SKU. */
const CONFIRMED = 'c';
const SUBMITTED = 's';

const skuKey = (vendorSku: string) => vendorSku.toLowerCase();

/** One change to the memory: an entry set or deleted (null), or every entry forgotten (no key). */
interface Change {
	seq: number;
	key?: string;
	entry?: string | null;
}

/**
 * The changes made by the runs of one node that are going on in this process. n8n saves static data whole when a run
 * ends, so of two overlapping runs the last to end would drop what the other remembered, and a row the other wrote
 * would later be called unchanged against the older memory. Each run's save replays, over what it loaded, every
 * change made since it began, in order. A change no run going on began before is let go of (a node whose runs always
 * overlap, a busy webhook, keeps only what its oldest run may replay); the journal goes when the node's last run ends.
 */
interface Journal {
	/** Where each run going on began (`lastSeq` then). */
	starts: number[];
	changes: Change[];
}

const journals = new Map<string, Journal>();
let lastSeq = 0;

/** How many changes the journals keep for runs going on (tests: the journal stays bounded). */
export function journalledChanges(): number {
	let count = 0;
	for (const journal of journals.values()) count += journal.changes.length;
	return count;
}

/** A new n8n process (tests): no run is going on. */
export function forgetSentMemoryJournals(): void {
	journals.clear();
}

export class SentMemory {
	/** Lower-cased SKU → entry, in the order they were last touched (oldest first: the first dropped). */
	private readonly entries: Map<string, string>;

	private changed = false;

	private verifiedAt: number | undefined;

	/** The journal's position when this run began: the changes after it are replayed by `save`. */
	private readonly startedAt = lastSeq;

	private released = false;

	private constructor(
		private readonly staticData: IDataObject,
		private readonly journal: Journal,
	) {
		journal.starts.push(this.startedAt);
		const stored = staticData[STATIC_DATA_KEY];
		const valid =
			stored !== null && typeof stored === 'object' && !Array.isArray(stored)
				? Object.entries(stored as IDataObject).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
				: [];
		this.entries = new Map(valid);
		// Workflows saved before creations needed confirming hold fingerprints the service never confirmed (and that
		// left out the consignment): they must not cause a skip. Dropped, so each row is sent once more.
		if (UNCONFIRMED_LEGACY_KEY in staticData) this.changed = true;
	}

	/** Opened once per run; `release` when the run ends, whatever happened. */
	static of(context: IExecuteFunctions, forget: boolean): SentMemory {
		// n8n keeps a node's static data by workflow and node name.
		const node = `${String(context.getWorkflow().id ?? '')}\u0000${context.getNode().name}`;
		const journal = journals.get(node) ?? { starts: [], changes: [] };
		journals.set(node, journal);
		const memory = new SentMemory(context.getWorkflowStaticData('node'), journal);
		if (forget) {
			memory.entries.clear();
			memory.journal.changes.push({ seq: ++lastSeq });
			memory.changed = true;
		}
		return memory;
	}

	/** This run is over (saved or not): the changes only it could replay go, and the journal once no run of the node goes on. */
	release(): void {
		if (this.released) return;
		this.released = true;
		const { starts, changes } = this.journal;
		starts.splice(starts.indexOf(this.startedAt), 1);
		if (starts.length > 0) {
			// In the order they were made: what no run going on may replay is at the front.
			const oldest = Math.min(...starts);
			const firstKept = changes.findIndex((change) => change.seq > oldest);
			changes.splice(0, firstKept === -1 ? changes.length : firstKept);
			return;
		}
		changes.length = 0;
		for (const [node, journal] of journals) if (journal === this.journal) journals.delete(node);
	}

	/**
	 * Whether this run should check the rows it would skip against the listings. A memory saved without the time
	 * (the run that filled it, or an older version's) counts from its next save.
	 */
	verificationDue(): boolean {
		const at = this.staticData[VERIFIED_AT_KEY];
		return typeof at === 'number' && Date.now() - at >= VERIFY_EVERY_MS;
	}

	markVerified(): void {
		this.verifiedAt = Date.now();
		this.changed = true;
	}

	unchanged(vendorSku: string, fingerprint: string): boolean {
		return this.entries.get(skuKey(vendorSku)) === CONFIRMED + fingerprint;
	}

	submitted(vendorSku: string, fingerprint: string): boolean {
		return this.entries.get(skuKey(vendorSku)) === SUBMITTED + fingerprint;
	}

	rememberConfirmed(vendorSku: string, fingerprint: string): void {
		this.set(skuKey(vendorSku), CONFIRMED + fingerprint);
	}

	rememberSubmitted(vendorSku: string, fingerprint: string): void {
		this.set(skuKey(vendorSku), SUBMITTED + fingerprint);
	}

	confirm(vendorSku: string): void {
		const key = skuKey(vendorSku);
		const entry = this.entries.get(key);
		if (entry?.startsWith(SUBMITTED)) this.set(key, CONFIRMED + entry.slice(SUBMITTED.length));
	}

	forget(vendorSku: string): void {
		const key = skuKey(vendorSku);
		if (this.entries.delete(key)) {
			this.changed = true;
			this.journal.changes.push({ seq: ++lastSeq, key, entry: null });
		}
	}

	/** Both listings were read in full: any SKU they do not show (refused later, or gone) is sent again. */
	reconcile(isShown: (lowerCasedSku: string) => boolean): void {
		for (const [key, entry] of [...this.entries]) {
			if (!isShown(key)) this.forget(key);
			else if (entry.startsWith(SUBMITTED)) this.set(key, CONFIRMED + entry.slice(SUBMITTED.length));
		}
	}

	/** One new value, which marks n8n's static data as changed so it is saved. */
	save(): void {
		// What the node's other runs in this process changed since this one began, replayed in order with this run's own.
		const since = this.journal.changes.filter((change) => change.seq > this.startedAt);
		for (const change of since) {
			if (change.key === undefined) this.entries.clear();
			else if (change.entry === null || change.entry === undefined) this.entries.delete(change.key);
			else {
				this.entries.delete(change.key);
				this.entries.set(change.key, change.entry);
			}
		}
		if (!this.changed && since.length === 0) return;
		// Over the bound, the entries touched longest ago go first (a Map keeps the order they were set in).
		const kept = [...this.entries].slice(Math.max(0, this.entries.size - MAX_ENTRIES));
		this.staticData[STATIC_DATA_KEY] = Object.fromEntries(kept);
		if (this.verifiedAt !== undefined || typeof this.staticData[VERIFIED_AT_KEY] !== 'number') {
			this.staticData[VERIFIED_AT_KEY] = this.verifiedAt ?? Date.now();
		}
		delete this.staticData[UNCONFIRMED_LEGACY_KEY];
	}

	private set(key: string, entry: string): void {
		// Deleted first, so the entry moves to the end: the most recently touched are the last to be dropped.
		this.entries.delete(key);
		this.entries.set(key, entry);
		this.changed = true;
		this.journal.changes.push({ seq: ++lastSeq, key, entry });
	}
}
