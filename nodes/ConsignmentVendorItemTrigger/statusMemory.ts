/**
 * Every item's last status, in static data, which n8n writes whole on every save: kept compact (100,000 items:
 * about 200-300 KB, measured in test/unit/item-trigger-memory.test.ts). Stored form:
 * - `statuses`: the status names in use; an item's status is one capital letter, its index here (A = 0), so
 *   any status the service sends (the contract's five, the public docs' `draft`, a new one) is remembered;
 * - `numeric`: the items whose `item_id` is a plain whole number (the contract's type), in ascending order, each
 *   as the difference to the previous id in base 36 followed by its letter (`1A2A1C` = ids 1, 3, 4);
 * - `other`: items with any other id (the service may send strings), id -> letter;
 * - a `!` before the letter marks an item that was missing from the last read (kept for one more poll, see
 *   statusDiff.ts);
 * - `account`: a hash of the credential's Base URL and client ID. A memory of another account (the node's
 *   credential was changed) is no memory: compared with it, every item of the new account would be "new".
 * - `v`: 1 for a memory of complete reads; 2 for a partial baseline (the activation read only the first page of
 *   each listing: items it did not see are taken into the memory by the next complete read, silently unless they
 *   were created or updated after `since`). A version of the node that knows only 1 reads a partial baseline as no
 *   memory, which is safe (a new baseline, no flood).
 * - `since`: a time on the SERVICE's clock (ms since 1970, margin included: serviceClock.ts) before the read that
 *   wrote the statuses began: a change this memory does not hold has an `updated_at` at or after it. Absent in
 *   memories of older versions of the node.
 * - `watching` (version 1): when the trigger started watching, the `since` of its baseline (complete, or the partial
 *   one a complete read took over), carried by every memory after it (statusDiff.ts: an item the memory does not hold
 *   that was created before it and updated since was missed by a read, it is no new item). A partial baseline's is
 *   its `since`. Absent in memories of older versions of the node: there the memory's `since` stands in (a later
 *   start than the true one, the most a memory of then can tell), and the next memory keeps it, so that an item the
 *   memory does not hold because a read missed it is not taken for a new one after an upgrade (found by the generated
 *   histories: an item approved while the baseline read came out as a `new_item` although it was not new).
 * - `writes`: one more than the memory it replaced (0 for none, or a memory of an older version), so it grows along
 *   each line of memories. pollLifecycle.ts tells memories apart by their content; without it, a memory that returns
 *   to earlier statuses (a change the filters left out, then its return) within one second of the service's clock
 *   (`since`) would equal its ancestor.
 */
import type { IDataObject } from 'n8n-workflow';

interface RememberedStatus {
	status: string;
	/** Missing from the last read: dropped when it is missing again. */
	missing: boolean;
}

export type StatusMemory = Map<string, RememberedStatus>;

const MEMORY_VERSION = 1;
export const PARTIAL_MEMORY_VERSION = 2;

interface StoredStatusMemory {
	v: typeof MEMORY_VERSION | typeof PARTIAL_MEMORY_VERSION;
	account: string;
	statuses: string[];
	numeric: string;
	other: Record<string, string>;
	since?: number;
	watching?: number;
	writes?: number;
}

const CODES = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const MISSING_MARK = '!';
/** Whole numbers that survive a round trip through a JS number (16+ digits may not). */
const PLAIN_WHOLE_NUMBER = /^(0|[1-9][0-9]{0,14})$/;

/** `partial`: a baseline from part of the listings; `since`, `watching`, `writes`: see the file comment. */
export function encodeStatusMemory(
	memory: StatusMemory,
	account: string,
	{ partial = false, since, watching, writes }: { partial?: boolean; since?: number; watching?: number; writes?: number } = {},
): StoredStatusMemory {
	const statuses: string[] = [];
	const codeOf = new Map<string, string>();
	const letter = ({ status, missing }: RememberedStatus): string => {
		let code = codeOf.get(status);
		if (code === undefined) {
			if (statuses.length >= CODES.length) {
				throw new Error(`The service reported more than ${CODES.length} different item statuses; the trigger cannot remember them`);
			}
			code = CODES[statuses.length];
			statuses.push(status);
			codeOf.set(status, code);
		}
		return missing ? MISSING_MARK + code : code;
	};

	const numericIds: number[] = [];
	const other: Record<string, string> = {};
	for (const [id, remembered] of memory) {
		if (PLAIN_WHOLE_NUMBER.test(id)) numericIds.push(Number(id));
		else other[id] = letter(remembered);
	}
	numericIds.sort((a, b) => a - b);
	const parts: string[] = [];
	let previous = 0;
	for (const id of numericIds) {
		parts.push((id - previous).toString(36) + letter(memory.get(String(id)) as RememberedStatus));
		previous = id;
	}
	const stored: StoredStatusMemory = { v: partial ? PARTIAL_MEMORY_VERSION : MEMORY_VERSION, account, statuses, numeric: parts.join(''), other };
	if (since !== undefined) stored.since = since;
	if (watching !== undefined && !partial) stored.watching = watching;
	if (writes !== undefined) stored.writes = writes;
	return stored;
}

/** The `writes` of a stored memory, whatever else it holds (0 for none, or an older one). */
export function writesOf(stored: unknown): number {
	const writes = stored !== null && typeof stored === 'object' ? (stored as IDataObject).writes : undefined;
	return typeof writes === 'number' && Number.isSafeInteger(writes) && writes > 0 ? writes : 0;
}

/**
 * The same items, statuses and kind, whatever their `since` and `writes` (a memory that would only get a later
 * `since` is not rewritten).
 */
export function sameStatuses(a: unknown, b: unknown): boolean {
	const statusesOnly = (stored: unknown) => {
		if (stored === null || typeof stored !== 'object') return JSON.stringify(stored ?? null);
		const rest: IDataObject = { ...(stored as IDataObject) };
		delete rest.since;
		delete rest.writes;
		return JSON.stringify(rest);
	};
	return statusesOnly(a) === statusesOnly(b);
}

export interface ReadMemory {
	items: StatusMemory;
	/** A partial baseline (see the file comment). */
	partial: boolean;
	/** See the file comment; undefined in memories of older versions. */
	since?: number;
	/** When the trigger started watching, or the `since` of a memory of an older version (see the file comment). */
	watching?: number;
}

/** Undefined when unreadable too: the poll then takes a new baseline (failing every poll would stop the trigger). */
export function readStatusMemory(stored: unknown, account: string): ReadMemory | undefined {
	if (stored === null || typeof stored !== 'object') return undefined;
	const { v } = stored as IDataObject;
	if (v !== MEMORY_VERSION && v !== PARTIAL_MEMORY_VERSION) return undefined;
	const items = decodeItems(stored as IDataObject, account);
	if (items === undefined) return undefined;
	const { since, watching } = stored as IDataObject;
	const read: ReadMemory = { items, partial: v === PARTIAL_MEMORY_VERSION };
	const time = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
	if (time(since) !== undefined) read.since = time(since);
	const watchingSince = read.partial ? read.since : (time(watching) ?? read.since);
	if (watchingSince !== undefined) read.watching = watchingSince;
	return read;
}

/** The items of a memory of complete reads; undefined for anything else (a partial baseline too). */
export function decodeStatusMemory(stored: unknown, account: string): StatusMemory | undefined {
	const read = readStatusMemory(stored, account);
	return read === undefined || read.partial ? undefined : read.items;
}

function decodeItems(stored: IDataObject, account: string): StatusMemory | undefined {
	const { statuses, numeric, other } = stored;
	if (stored.account !== account) return undefined;
	if (!Array.isArray(statuses) || typeof numeric !== 'string') return undefined;
	const read = (code: unknown): RememberedStatus | undefined => {
		if (typeof code !== 'string') return undefined;
		const missing = code.startsWith(MISSING_MARK);
		const status: unknown = statuses[CODES.indexOf(missing ? code.slice(1) : code)];
		return typeof status === 'string' ? { status, missing } : undefined;
	};
	const memory: StatusMemory = new Map();
	let id = 0;
	let decoded = 0;
	for (const [entry, delta, code] of numeric.matchAll(/([0-9a-z]+)(!?[A-Z])/g)) {
		const remembered = read(code);
		if (remembered === undefined) return undefined;
		id += parseInt(delta, 36);
		memory.set(String(id), remembered);
		decoded += entry.length;
	}
	// Anything between the entries means the text is not what encodeStatusMemory wrote.
	if (decoded !== numeric.length) return undefined;
	if (other !== undefined && other !== null) {
		if (typeof other !== 'object' || Array.isArray(other)) return undefined;
		for (const [key, code] of Object.entries(other)) {
			const remembered = read(code);
			if (remembered === undefined) return undefined;
			memory.set(key, remembered);
		}
	}
	return memory;
}
