/**
 * Create or Update's memory of creations the service has not listed yet. A creation is only *submitted*: the item
 * appears in the listings once the service has processed it, so until then a lookup finds nothing and the row would be
 * POSTed again, a duplicate. Each SKU submitted (or whose submission's outcome was unknown or unconfirmed) is kept
 * until the listings show the item or the window the user set ("New Items Listed Within") passes; within it the row is
 * not sent again.
 *
 * Two stores, because n8n saves a workflow's static data only when a production execution ends: static data carries
 * the memory across restarts and to other queue-mode workers, and a store in this process takes each submission the
 * moment its answer arrives, so a manual run, or a run that fails or is cancelled before the end, still protects the
 * next run in this process. What neither holds: a worker killed mid-run took its store with it and saved nothing, so a
 * re-run on another process within the listing delay can still send those rows again (docs/bulk-items.md says so).
 */
import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { RowResult } from '../../../shared/batchRunner';

const STATIC_DATA_KEY = 'awaitingListing';
/** Per account (base URL and client): another account's submissions say nothing about this one's SKUs. */
type Entries = Map<string, Submission>;

export interface Submission {
	/** When it was submitted (epoch ms). */
	at: number;
	/** `submitted`: the service accepted it; `unknown`: the request may or may not have reached it. */
	kind: 'submitted' | 'unknown';
}

/** Static data holds SKUs of up to this many submissions per account (~5 MB): older ones are dropped first. */
const MAX_ENTRIES = 100_000;

/** Workflow node and account → SKU → submission, for every run of this process. */
const processMemory = new Map<string, Entries>();

export function forgetProcessSubmissions(): void {
	processMemory.clear();
}

const accountOf = (serviceKey: string) => createHash('sha256').update(serviceKey).digest('hex').slice(0, 16);

function stored(staticData: IDataObject, account: string): Entries {
	const all = staticData[STATIC_DATA_KEY] as IDataObject | undefined;
	const mine = all?.[account];
	const entries: Entries = new Map();
	if (mine === null || typeof mine !== 'object' || Array.isArray(mine)) return entries;
	for (const [sku, value] of Object.entries(mine as IDataObject)) {
		if (typeof value !== 'string') continue;
		const [kind, at] = [value.charAt(0), Number(value.slice(1))];
		if (Number.isFinite(at)) entries.set(sku, { at, kind: kind === 'u' ? 'unknown' : 'submitted' });
	}
	return entries;
}

export class AwaitingListing {
	private changed = false;

	private constructor(
		private readonly entries: Entries,
		private readonly shared: Entries,
		private readonly staticData: IDataObject,
		private readonly account: string,
		private readonly windowMs: number,
		private readonly now: number,
	) {}

	/** `windowMs` 0: nothing is held back, and nothing new is kept. */
	static of(context: IExecuteFunctions, serviceKey: string, windowMs: number): AwaitingListing {
		const account = accountOf(serviceKey);
		const staticData = context.getWorkflowStaticData('node');
		const processKey = `${context.getWorkflow().id ?? ''}\u0000${context.getNode().id ?? context.getNode().name}\u0000${account}`;
		const shared = processMemory.get(processKey) ?? new Map<string, Submission>();
		processMemory.set(processKey, shared);
		const entries = stored(staticData, account);
		// The later of the two for each SKU: this process may know of submissions static data was not saved with.
		for (const [sku, submission] of shared) {
			const known = entries.get(sku);
			if (!known || known.at < submission.at) entries.set(sku, submission);
		}
		return new AwaitingListing(entries, shared, staticData, account, windowMs, Date.now());
	}

	/** The submission the row must wait for, if its window has not passed. */
	pending(sku: string): Submission | undefined {
		const submission = this.entries.get(sku.toLowerCase());
		return submission && this.now - submission.at < this.windowMs ? submission : undefined;
	}

	record(sku: string, kind: Submission['kind']): void {
		if (this.windowMs <= 0) return;
		const submission: Submission = { at: Date.now(), kind };
		this.set(sku.toLowerCase(), submission);
		this.shared.set(sku.toLowerCase(), submission);
	}

	/** The service shows the item, or refused it for certain: nothing to wait for. */
	settled(sku: string): void {
		const key = sku.toLowerCase();
		if (this.entries.delete(key)) this.changed = true;
		this.shared.delete(key);
	}

	/** Written into n8n's static data (saved by n8n when a production execution ends); past windows are dropped. */
	save(): void {
		for (const [sku, submission] of [...this.entries]) {
			if (this.now - submission.at >= this.windowMs) {
				this.entries.delete(sku);
				this.shared.delete(sku);
				this.changed = true;
			}
		}
		if (!this.changed) return;
		const kept = [...this.entries].slice(Math.max(0, this.entries.size - MAX_ENTRIES));
		const all = { ...((this.staticData[STATIC_DATA_KEY] as IDataObject | undefined) ?? {}) };
		if (kept.length === 0) delete all[this.account];
		else all[this.account] = Object.fromEntries(kept.map(([sku, { at, kind }]) => [sku, `${kind === 'unknown' ? 'u' : 's'}${at}`]));
		this.staticData[STATIC_DATA_KEY] = all;
	}

	private set(key: string, submission: Submission): void {
		this.entries.delete(key); // moved to the end: the most recent are the last to be dropped
		this.entries.set(key, submission);
		this.changed = true;
	}
}

/** The output of a row held back: when it was submitted, and until when it waits. */
export function awaitingOutcome(vendorSku: string, submission: Submission, windowHours: number, preview: boolean): RowResult {
	const submittedAt = new Date(submission.at).toISOString();
	return {
		ok: 'noRequest',
		outcome: 'awaiting the service',
		json: {
			operation: 'awaiting the service',
			status: submission.kind === 'unknown' ? 'outcome unknown' : 'submitted',
			vendor_sku: vendorSku,
			submitted_at: submittedAt,
			message: `Submitted at ${submittedAt}${submission.kind === 'unknown' ? ' (the answer was lost, so it may have been created)' : ''} and not listed by the service yet: not sent again until the listings show it or ${windowHours} h (New Items Listed Within) have passed`,
			...(preview ? { preview: 'awaiting the service' } : {}),
		},
	};
}
