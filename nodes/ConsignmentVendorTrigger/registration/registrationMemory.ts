/**
 * What the trigger remembers, in the node's workflow static data, about the vendor setting it replaced.
 *
 * Entries are keyed by the webhook URL this node put in place. Why a map and not one entry:
 * - n8n gives test listening its own, never-saved static data, but keying by URL keeps a test
 *   registration and the production one apart even where both would share one object;
 * - when n8n's public URL changes between restarts, the URL still at the vendor is a URL *we* set,
 *   found here by key, so it is never mistaken for the vendor's own previous URL.
 */
import type { IDataObject } from 'n8n-workflow';

/** The vendor's webhook setting as it was before this node registered itself. */
export interface RememberedSetting {
	previousUrl: string | null;
	previousEnabled: boolean;
}

export type Registrations = Record<string, RememberedSetting>;

const KEY = 'registrations';

function isRemembered(value: unknown): value is RememberedSetting {
	if (typeof value !== 'object' || value === null) return false;
	const entry = value as IDataObject;
	return (
		(entry.previousUrl === null || typeof entry.previousUrl === 'string') &&
		typeof entry.previousEnabled === 'boolean'
	);
}

/** A copy of the stored registrations; entries in an unexpected shape are dropped. */
export function readRegistrations(staticData: IDataObject): Registrations {
	const stored = staticData[KEY];
	const result: Registrations = {};
	if (typeof stored !== 'object' || stored === null) return result;
	for (const [url, entry] of Object.entries(stored as IDataObject)) {
		if (isRemembered(entry)) {
			result[url] = { previousUrl: entry.previousUrl, previousEnabled: entry.previousEnabled };
		}
	}
	return result;
}

/**
 * True when `staticData` remembers a registration of `url`. After a successful production activation the node's
 * static data always does (create writes an entry, "nothing to restore" included), so a copy without one was loaded
 * before n8n saved that activation (delivery/repeatedDeliveries.ts must not save over it).
 */
export function remembersRegistration(staticData: IDataObject, url: string): boolean {
	return readRegistrations(staticData)[url] !== undefined;
}

/**
 * Replaces the stored registrations with `registrations` as one assignment (or one delete), so
 * n8n's observable static data marks itself changed and n8n saves it after activation/deactivation.
 */
export function writeRegistrations(staticData: IDataObject, registrations: Registrations): void {
	if (Object.keys(registrations).length === 0) {
		if (KEY in staticData) delete staticData[KEY];
		return;
	}
	staticData[KEY] = registrations as unknown as IDataObject;
}
