/**
 * The URL put at the vendor while listening for a test event: n8n's test URL plus, in its query, the setting it
 * replaced.
 *
 * Why in the URL: n8n keeps a test registration's static data only in its test-webhook cache (process memory in
 * regular mode), never in the database, and production runs never see it. A restart while listening, or a PATCH
 * that fails when listening stops, would otherwise lose the vendor's own URL for good. In the URL it survives at
 * the vendor itself, where every later activation or listening session of any n8n process reads it. n8n routes
 * webhooks by path only, so the query does not change where deliveries go.
 *
 * The marker also tells a listening session's URL from a production one: production URLs never carry it.
 */
import type { RememberedSetting } from './registrationMemory';

const RESTORE_URL = 'cvt_restore_url';
const RESTORE_ENABLED = 'cvt_restore_enabled';

/** `testUrl` with `previous` in its query. */
export function markListeningUrl(testUrl: string, previous: RememberedSetting): string {
	const query = new URLSearchParams({
		[RESTORE_URL]: previous.previousUrl ?? '',
		[RESTORE_ENABLED]: previous.previousEnabled ? 'true' : 'false',
	});
	return `${testUrl}${testUrl.includes('?') ? '&' : '?'}${query.toString()}`;
}

interface ParsedListeningUrl {
	/** The URL without the marker: n8n's test URL the session listens on. */
	url: string;
	previous: RememberedSetting;
}

/** The setting a listening session's URL carries, or undefined for any other URL. */
export function parseListeningUrl(url: string | null): ParsedListeningUrl | undefined {
	if (url === null) return undefined;
	const queryStart = url.indexOf('?');
	if (queryStart < 0) return undefined;
	const query = new URLSearchParams(url.slice(queryStart + 1));
	const previousUrl = query.get(RESTORE_URL);
	const enabled = query.get(RESTORE_ENABLED);
	if (previousUrl === null || (enabled !== 'true' && enabled !== 'false')) return undefined;
	query.delete(RESTORE_URL);
	query.delete(RESTORE_ENABLED);
	const rest = query.toString();
	return {
		url: url.slice(0, queryStart) + (rest === '' ? '' : `?${rest}`),
		previous: { previousUrl: previousUrl === '' ? null : previousUrl, previousEnabled: enabled === 'true' },
	};
}
