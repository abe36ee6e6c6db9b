/**
 * Keyed by the webhook URL this node put in place: keeps test and production registrations apart even in one
 * object, and when n8n's public URL changes between restarts, the URL still at the vendor is found here as one *we*
 * set, never mistaken for the vendor's own previous URL.
 */
import type { IDataObject } from 'n8n-workflow';

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

/** Entries in an unexpected shape are dropped. */
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
 * After a production activation static data always remembers one (create writes "nothing to restore" too), so a
 * copy without one predates that save (repeatedDeliveries.ts must not save over it).
 */
export function remembersRegistration(staticData: IDataObject, url: string): boolean {
	return readRegistrations(staticData)[url] !== undefined;
}

/** One assignment (or one delete), so n8n's observable static data marks itself changed and is saved. */
export function writeRegistrations(staticData: IDataObject, registrations: Registrations): void {
	if (Object.keys(registrations).length === 0) {
		if (KEY in staticData) delete staticData[KEY];
		return;
	}
	staticData[KEY] = registrations as unknown as IDataObject;
}
