/**
 * The account's ledger of creations the service has not listed yet. A creation is only *submitted*: the item appears
 * in the listings once the service has processed it, so until then a lookup finds nothing and the row would be POSTed
 * again, a duplicate. The service's SKUs are per account, so the ledger is too: one per base URL and client, shared by
 * every node and every workflow of this n8n process (Item Create and Create or Update alike), read live at the moment
 * a row is about to leave, never from a copy taken when the run started.
 *
 * - A SKU is claimed (`sending`) in the same turn of the event loop that finds it free, before its request leaves: an
 *   overlapping run, another node or another workflow that reaches the same SKU meanwhile holds its row back.
 * - Its answer turns the claim into `submitted` or `unknown` (the request may or may not have reached the service),
 *   held until the listings show the item or until the window the submitting run had ("New Items Listed Within")
 *   passes; a refusal the service gave for certain releases it. Each entry keeps its own end: a later run with another
 *   window neither forgets nor re-sends it.
 * - Static data carries the ledger across restarts: each production run writes the account's whole ledger as this
 *   process knows it into the workflow's global static data (not the node's, so a renamed or second node reads it).
 *   n8n keeps no store shared between processes: docs/bulk-items.md says what another worker or a restart can miss.
 */
import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_LISTED_WITHIN_HOURS } from './ledgerFields';
import { skuKey } from './skuText';

/** Workflow (global) static data: account → SKU → entry. */
const STATIC_DATA_KEY = 'submissionLedger';
/** Where versions before the account ledger kept it: the node's static data (read once, then removed). */
const LEGACY_NODE_KEY = 'awaitingListing';

const DEFAULT_WINDOW_MS = DEFAULT_LISTED_WITHIN_HOURS * 3_600_000;

/** Static data holds up to this many submissions per account (~6 MB): the oldest are dropped first. */
const MAX_ENTRIES = 100_000;

export interface Submission {
	/** When it was sent (epoch ms). */
	at: number;
	/** Held back until then, unless the listings show the item first. */
	until: number;
	/** `sending`: its request has not answered yet; `unknown`: the answer was lost or did not confirm it. */
	kind: 'sending' | 'submitted' | 'unknown';
	/** The row as it was submitted: when the item is listed, the same row needs no PATCH. */
	fingerprint?: string;
}

/**
 * What this process learned of a SKU that makes stored submissions out of date, each kept apart so that a later
 * event never takes back an earlier one (times only move forward).
 */
interface Cleared {
	/** The listings were seen to show the item: no stored submission made before then holds the row. */
	seenListedAt?: number;
	/** Taken as listed then (seen, or created with a window of 0): a lookup that began before looks again. */
	listedAt?: number;
	/**
	 * A claim made at `since`, answered at `at` without a hold (refused, or created with a window of 0). That says
	 * nothing of submissions made before it (another workflow's, stored in its own static data, that this process
	 * never saw): only stored copies of that claim, or later ones, stay cleared.
	 */
	answered?: { since: number; at: number };
}

interface Account {
	submissions: Map<string, Submission>;
	cleared: Map<string, Cleared>;
}

const accounts = new Map<string, Account>();

/** A new n8n process (tests): the ledger kept in memory is gone, static data is not. */
export function forgetProcessLedger(): void {
	accounts.clear();
}

const accountOf = (serviceKey: string) => createHash('sha256').update(serviceKey).digest('hex').slice(0, 16);

const ENTRY = /^([su])(\d+)(?:\+(\d+))?(?::([0-9a-f]+))?$/;

function encode({ at, until, kind, fingerprint }: Submission): string {
	// A claim still on the wire when the run saves (another run's) is an unknown outcome to a process that restarts.
	const end = kind === 'sending' ? at + DEFAULT_WINDOW_MS : until;
	return `${kind === 'submitted' ? 's' : 'u'}${at}+${Math.max(0, end - at)}${fingerprint ? `:${fingerprint}` : ''}`;
}

function decode(value: unknown, legacyWindowMs: number): Submission | undefined {
	const match = typeof value === 'string' ? ENTRY.exec(value) : null;
	if (!match) return undefined;
	const at = Number(match[2]);
	const until = at + (match[3] === undefined ? legacyWindowMs : Number(match[3]));
	return { at, until, kind: match[1] === 'u' ? 'unknown' : 'submitted', ...(match[4] ? { fingerprint: match[4] } : {}) };
}

function objectAt(data: IDataObject | undefined, key: string): IDataObject | undefined {
	const value = data?.[key];
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : undefined;
}

/** Whether what this process learned of the SKU makes a stored submission out of date (Cleared says which ones). */
function clearedBefore(cleared: Cleared | undefined, stored: Submission): boolean {
	if (!cleared) return false;
	if (cleared.seenListedAt !== undefined && stored.at <= cleared.seenListedAt) return true;
	return cleared.answered !== undefined && stored.at >= cleared.answered.since && stored.at <= cleared.answered.at;
}

export class SubmissionLedger {
	private constructor(
		private readonly state: Account,
		private readonly account: string,
		private readonly globalData: IDataObject,
		private readonly nodeData: IDataObject,
		/** SKUs this run was asked to send again although an earlier submission holds them ("Send Again"). */
		private readonly sendAgain: ReadonlySet<string>,
	) {}

	/** `legacyWindowMs`: the hold of entries saved by earlier versions, which kept no end of their own. */
	static open(context: IExecuteFunctions, serviceKey: string, options: { sendAgain?: string[]; legacyWindowMs?: number } = {}): SubmissionLedger {
		const account = accountOf(serviceKey);
		const state = accounts.get(account) ?? { submissions: new Map(), cleared: new Map() };
		accounts.set(account, state);
		const ledger = new SubmissionLedger(
			state,
			account,
			context.getWorkflowStaticData('global'),
			context.getWorkflowStaticData('node'),
			new Set((options.sendAgain ?? []).map((sku) => skuKey(sku)).filter((key): key is string => key !== null)),
		);
		const legacyWindowMs = options.legacyWindowMs ?? DEFAULT_WINDOW_MS;
		ledger.merge(objectAt(objectAt(ledger.globalData, STATIC_DATA_KEY), account), legacyWindowMs);
		ledger.merge(objectAt(objectAt(ledger.nodeData, LEGACY_NODE_KEY), account), legacyWindowMs);
		return ledger;
	}

	/** The submission that holds this SKU back now, unless this run was asked to send it again (never one on the wire). */
	holding(sku: string): Submission | undefined {
		const key = skuKey(sku);
		const submission = key === null ? undefined : this.state.submissions.get(key);
		if (!submission) return undefined;
		if (submission.kind === 'sending') return submission;
		if (submission.until <= Date.now() || this.sendAgain.has(key!)) return undefined;
		return submission;
	}

	/** The entry for this SKU while it is held, whatever this run's Send Again says: what was submitted. */
	submitted(sku: string): Submission | undefined {
		const submission = this.state.submissions.get(skuKey(sku) ?? '');
		return submission && (submission.kind === 'sending' || submission.until > Date.now()) ? submission : undefined;
	}

	/**
	 * Claims the SKU for a request about to leave, in the same turn that finds it free; or the submission that holds it.
	 * Checking and claiming in one synchronous call is what keeps two runs from both sending it.
	 */
	claim(sku: string, fingerprint: string | undefined): Submission | undefined {
		const held = this.holding(sku);
		if (held) return held;
		this.state.submissions.set(skuKey(sku)!, { at: Date.now(), until: Number.POSITIVE_INFINITY, kind: 'sending', fingerprint });
		return undefined;
	}

	/**
	 * The claim's answer. `refused`: the service said for certain it created nothing. A window of 0 keeps nothing: the
	 * user said the service lists new items at once, so the item counts as listed from now on (a run in this process
	 * that read the listings or looked the SKU up while the request was on the wire looks again).
	 */
	answered(sku: string, outcome: 'submitted' | 'unknown' | 'refused', windowMs: number): void {
		const key = skuKey(sku)!;
		const claim = this.state.submissions.get(key);
		if (outcome === 'refused' || windowMs <= 0) {
			this.clear(key, outcome !== 'refused', claim?.at ?? Date.now());
			return;
		}
		const at = claim?.at ?? Date.now();
		this.state.submissions.delete(key); // moved to the end: the most recent are the last dropped
		this.state.submissions.set(key, { at, until: Date.now() + windowMs, kind: outcome, fingerprint: claim?.fingerprint });
	}

	/** The listings show the item: nothing to wait for. Not while its own request is on the wire. */
	listed(sku: string): void {
		const key = skuKey(sku);
		if (key !== null && this.state.submissions.get(key)?.kind !== 'sending') this.clear(key, true);
	}

	/** This process saw the listings show the SKU after `time`: a read of the listings made before then is out of date. */
	listedSince(sku: string, time: number): boolean {
		const listedAt = this.state.cleared.get(skuKey(sku) ?? '')?.listedAt;
		return listedAt !== undefined && listedAt >= time;
	}

	/**
	 * Written into the workflow's static data (n8n saves it when a production execution ends): the account's whole
	 * ledger as this process knows it, so the last run to save leaves every run's submissions. Nothing is written when
	 * nothing changed (n8n would write the workflow row for nothing).
	 */
	save(): void {
		const now = Date.now();
		// Past their window, entries leave the process too: a long-running n8n keeps only what still holds rows back.
		for (const [sku, submission] of this.state.submissions) if (submission.kind !== 'sending' && submission.until <= now) this.state.submissions.delete(sku);
		const live = [...this.state.submissions];
		const kept = live.slice(Math.max(0, live.length - MAX_ENTRIES));
		const entries = Object.fromEntries(kept.map(([sku, submission]) => [sku, encode(submission)]));
		const all = objectAt(this.globalData, STATIC_DATA_KEY) ?? {};
		if (JSON.stringify(all[this.account] ?? {}) !== JSON.stringify(entries)) {
			const next = { ...all };
			if (kept.length === 0) delete next[this.account];
			else next[this.account] = entries;
			this.globalData[STATIC_DATA_KEY] = next;
		}
		const legacy = objectAt(this.nodeData, LEGACY_NODE_KEY);
		if (legacy && this.account in legacy) {
			const rest = { ...legacy };
			delete rest[this.account];
			if (Object.keys(rest).length === 0) delete this.nodeData[LEGACY_NODE_KEY];
			else this.nodeData[LEGACY_NODE_KEY] = rest;
		}
	}

	/** Stored entries join the process's, unless the process knows a later state of the SKU. */
	private merge(stored: IDataObject | undefined, legacyWindowMs: number): void {
		if (!stored) return;
		const now = Date.now();
		for (const [key, value] of Object.entries(stored)) {
			const submission = decode(value, legacyWindowMs);
			if (!submission || submission.until <= now) continue;
			const known = this.state.submissions.get(key);
			if (clearedBefore(this.state.cleared.get(key), submission) || (known && known.at >= submission.at)) continue;
			this.state.submissions.set(key, submission);
		}
	}

	/** `claimedAt`: cleared by the answer to the claim made then; otherwise the listings were seen to show it. */
	private clear(key: string, listed: boolean, claimedAt?: number): void {
		const now = Date.now();
		const cleared = { ...this.state.cleared.get(key) };
		if (listed) cleared.listedAt = now;
		if (claimedAt === undefined) cleared.seenListedAt = now;
		else cleared.answered = { since: claimedAt, at: now };
		this.state.submissions.delete(key);
		this.state.cleared.delete(key); // moved to the end: the oldest clearings are the first dropped
		this.state.cleared.set(key, cleared);
		// Bounded like the entries: the oldest clearings say least.
		if (this.state.cleared.size > MAX_ENTRIES) this.state.cleared.delete(this.state.cleared.keys().next().value!);
	}
}
