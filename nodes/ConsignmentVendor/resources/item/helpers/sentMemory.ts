/**
 * Upsert's "Only Send What Changed": per vendor SKU, a fingerprint of the row last sent and whether the service has
 * shown the item since. Kept in the node's workflow static data (`getWorkflowStaticData('node')`, key `sentItems`).
 * n8n saves static data with the workflow after production executions (trigger, schedule, webhook; queue-mode
 * workers included) and not after manual test runs, so the memory is that of the workflow's production runs.
 *
 * A row is skipped only when its fingerprint is remembered as CONFIRMED: the service showed the item (a listing or a
 * lookup found its SKU, or a PATCH of the found item succeeded). A creation answered "submitted" is remembered as
 * SUBMITTED only: the service may still refuse it later (`invalid_item_upload`), so such a row is not skipped; it
 * becomes confirmed when the listings show its SKU, and is sent again when they do not.
 *
 * A fingerprint is a SHA-256 (first 16 hex digits) of the row as it would be sent (every item field, the additional
 * fields) and of the consignment a new item goes to, with object keys in a fixed order, so the same row always gives
 * the same fingerprint and any changed value, the consignment included, gives another.
 *
 * Bounded: SKUs the listings no longer show are dropped whenever both listings were read in full, and at most
 * MAX_ENTRIES SKUs are kept, the least recently sent or confirmed dropped first. Dropping is always safe: that row is
 * sent again (found by SKU, so an update, never a duplicate).
 */
import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

const STATIC_DATA_KEY = 'sentItems';
/** The memory of versions that remembered creations as sent; never trusted (see `SentMemory.of`). */
const UNCONFIRMED_LEGACY_KEY = 'sentFingerprints';

/**
 * 100,000 SKUs, about 3.5 MB of static data (35 bytes for a 12-character SKU): n8n reads the workflow's static data
 * with every execution and writes it after each production run that changed it, so the memory must stay a size a
 * workflow row holds. Sheets beyond that still work: the rows forgotten are simply sent again.
 */
export const MAX_ENTRIES = 100_000;

/** An entry is its state's letter then the fingerprint: compact, as it is stored once per SKU. */
const CONFIRMED = 'c';
const SUBMITTED = 's';

function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonical);
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.keys(value as IDataObject)
				.sort()
				.map((key) => [key, canonical((value as IDataObject)[key])]),
		);
	}
	return value;
}

/** The fingerprint of a row as sent, and of the consignment a new item of that row is created in. */
export function fingerprintOf(row: unknown, consignmentId: string | undefined): string {
	const sent = { row, consignment: consignmentId ?? null };
	return createHash('sha256').update(JSON.stringify(canonical(sent))).digest('hex').slice(0, 16);
}

const skuKey = (vendorSku: string) => vendorSku.toLowerCase();

export class SentMemory {
	/** Lower-cased SKU → entry, in the order they were last touched (oldest first: the first dropped). */
	private readonly entries: Map<string, string>;

	private changed = false;

	private constructor(private readonly staticData: IDataObject) {
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

	/** The node's memory; `forget` starts it empty (Forget What Was Sent). */
	static of(context: IExecuteFunctions, forget: boolean): SentMemory {
		const memory = new SentMemory(context.getWorkflowStaticData('node'));
		if (forget) {
			memory.entries.clear();
			memory.changed = true;
		}
		return memory;
	}

	/** Whether `fingerprint` was sent for this SKU and the service has shown the item since: the row may be skipped. */
	unchanged(vendorSku: string, fingerprint: string): boolean {
		return this.entries.get(skuKey(vendorSku)) === CONFIRMED + fingerprint;
	}

	/** Whether `fingerprint` was sent for this SKU as a creation the service has not shown yet. */
	submitted(vendorSku: string, fingerprint: string): boolean {
		return this.entries.get(skuKey(vendorSku)) === SUBMITTED + fingerprint;
	}

	/** What was sent to an item the service showed (a successful PATCH of a found item). */
	rememberConfirmed(vendorSku: string, fingerprint: string): void {
		this.set(skuKey(vendorSku), CONFIRMED + fingerprint);
	}

	/** A creation the service accepted for processing: not a reason to skip until the service shows the item. */
	rememberSubmitted(vendorSku: string, fingerprint: string): void {
		this.set(skuKey(vendorSku), SUBMITTED + fingerprint);
	}

	/** The service showed the item (a lookup found it): a submitted creation becomes confirmed. */
	confirm(vendorSku: string): void {
		const key = skuKey(vendorSku);
		const entry = this.entries.get(key);
		if (entry?.startsWith(SUBMITTED)) this.set(key, CONFIRMED + entry.slice(SUBMITTED.length));
	}

	forget(vendorSku: string): void {
		if (this.entries.delete(skuKey(vendorSku))) this.changed = true;
	}

	/**
	 * Both listings were read in full: SKUs they show (`isShown`, given a lower-cased SKU) are confirmed, every other
	 * SKU is dropped (a submitted creation the service refused, an item gone), so its row is sent again.
	 */
	reconcile(isShown: (lowerCasedSku: string) => boolean): void {
		for (const [key, entry] of [...this.entries]) {
			if (!isShown(key)) {
				this.entries.delete(key);
				this.changed = true;
			} else if (entry.startsWith(SUBMITTED)) {
				this.entries.set(key, CONFIRMED + entry.slice(SUBMITTED.length));
				this.changed = true;
			}
		}
	}

	/** Writes the memory back as one new value, which marks n8n's static data as changed so it is saved. */
	save(): void {
		if (!this.changed) return;
		// Over the bound, the entries touched longest ago go first (a Map keeps the order they were set in).
		const kept = [...this.entries].slice(Math.max(0, this.entries.size - MAX_ENTRIES));
		this.staticData[STATIC_DATA_KEY] = Object.fromEntries(kept);
		delete this.staticData[UNCONFIRMED_LEGACY_KEY];
	}

	private set(key: string, entry: string): void {
		// Deleted first, so the entry moves to the end: the most recently touched are the last to be dropped.
		this.entries.delete(key);
		this.entries.set(key, entry);
		this.changed = true;
	}
}
