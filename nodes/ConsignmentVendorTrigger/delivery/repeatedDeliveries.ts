/**
 * "Ignore Repeated Deliveries": the service documents no delivery guarantees, and a sender repeats an event whose
 * answer was slow or lost. An event's identity is its operation, key fields and timestamp, whatever envelope, key
 * order or signature it comes with; without a timestamp only its bytes tell two occurrences apart.
 * Remembered in the workflow's static data (saved after every production webhook call, 1.x and 2.x, queue mode
 * too; of two overlapping calls the later save wins, which only loses an entry) and in this process, which catches
 * a repeat arriving while the first call still runs.
 * `persist: false`: n8n saves static data whole, and an early call can run on a copy from before activation was
 * saved (2.x: once every trigger is registered); saving it would erase the registration memory, and deactivation
 * could no longer give the vendor its URL back.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { NormalisedEvent } from './events';

export const DEFAULT_WINDOW_HOURS = 24;
export const MAX_REMEMBERED = 2000;

const KEY = 'deliveries';
const IDENTITY_FIELDS = ['vendor_sku', 'sku', 'item_id', 'consignment_id', 'id', 'errors'] as const;

/** identity → first seen (ms) */
type Seen = Record<string, number>;

const hash = (text: string | Buffer) => createHash('sha256').update(text).digest('hex').slice(0, 32);

export function deliveryIdentity(event: NormalisedEvent, rawBody: Buffer | undefined, body: IDataObject): string {
	const timestamp = event.fields.timestamp;
	if (timestamp === undefined || timestamp === null || timestamp === '') {
		return `b:${hash(rawBody ?? JSON.stringify(body))}`;
	}
	const key = [event.event, ...IDENTITY_FIELDS.map((name) => event.fields[name] ?? null), timestamp];
	return `e:${hash(JSON.stringify(key))}`;
}

function readSeen(staticData: IDataObject): Seen {
	const stored = staticData[KEY];
	const seen: Seen = {};
	if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return seen;
	for (const [identity, at] of Object.entries(stored)) {
		if (typeof at === 'number' && Number.isFinite(at)) seen[identity] = at;
	}
	return seen;
}

/** Entries within the window, at most `limit` of them, newest kept (a database may not keep key order). */
function pruned(seen: Seen, now: number, windowMs: number, limit: number): Seen {
	const recent = Object.entries(seen).filter(([, at]) => now - at < windowMs);
	recent.sort((a, b) => a[1] - b[1]);
	return Object.fromEntries(recent.slice(Math.max(0, recent.length - limit)));
}

/** In-process memory, per trigger (its production webhook URL): identity -> first seen. */
const processMemory = new Map<string, Map<string, number>>();

function seenInProcess(scope: string, identity: string, now: number, windowMs: number): boolean {
	const at = processMemory.get(scope)?.get(identity);
	return at !== undefined && now - at < windowMs;
}

function rememberInProcess(scope: string, identity: string, now: number): void {
	let seen = processMemory.get(scope);
	if (seen === undefined) {
		seen = new Map();
		processMemory.set(scope, seen);
	}
	seen.delete(identity);
	seen.set(identity, now);
	// A Map iterates in insertion order: the first keys are the oldest.
	for (const oldest of seen.keys()) {
		if (seen.size <= MAX_REMEMBERED) break;
		seen.delete(oldest);
	}
}

interface RepeatCheck {
	staticData: IDataObject;
	/** False: read `staticData` but do not write it (see the file comment). */
	persist: boolean;
	/** Identifies the trigger within this process (its production webhook URL). */
	scope: string;
	identity: string;
	windowHours: number;
	now?: number;
}

/** The window counts from the first delivery, so steady repeats do not keep an event alive. */
export function isRepeatedDelivery({ staticData, persist, scope, identity, windowHours, now = Date.now() }: RepeatCheck): boolean {
	const windowMs = Math.max(0, windowHours) * 3_600_000;
	const stored = readSeen(staticData);
	const first = stored[identity];
	if ((first !== undefined && now - first < windowMs) || seenInProcess(scope, identity, now, windowMs)) return true;
	if (persist) {
		// One assignment, so n8n's observable static data marks itself changed and is saved.
		staticData[KEY] = pruned({ ...stored, [identity]: now }, now, windowMs, MAX_REMEMBERED) as unknown as IDataObject;
	}
	rememberInProcess(scope, identity, now);
	return false;
}
