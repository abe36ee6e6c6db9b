import { createHash } from 'crypto';

import {
	TokenExchangeError,
	tokenUrlFor,
	type ClientCredentials,
	type IssuedToken,
} from './tokenExchange';

/**
 * One token per (token URL, client id, client secret), shared by every caller in this n8n process.
 *
 * Why: n8n starts every input item's request at once (RoutingNode pushes one promise per item, then
 * `Promise.allSettled`), and each of them reads the credential separately and calls
 * `preAuthentication` while the stored token is still empty. Without sharing, 50 items would mean
 * 50 token requests. Sharing only the in-flight exchange is not enough either: an item whose
 * credential read finished before n8n persisted the new token arrives after the exchange settled,
 * still holding an empty token, so the settled token is kept here until shortly before it expires.
 */
interface SharedEntry {
	token?: string;
	/** Epoch ms after which `token` is no longer handed out. */
	usableUntil: number;
	pending?: Promise<IssuedToken>;
}

const entries = new Map<string, SharedEntry>();

/** Stop handing out a cached token this long before it lapses (at most 10% of its lifetime). */
const EXPIRY_MARGIN_SECONDS = 60;

export type Exchange = () => Promise<IssuedToken>;

/**
 * The token a request should use.
 *
 * `rejectedToken` is what the caller holds. n8n calls `preAuthentication` with an empty token when
 * it has none yet ("give me the current token"), and with the token it just sent when the API
 * answered 401 (n8n-core `httpRequestWithAuthentication` passes the same credentials object back
 * with `credentialsExpired`: "this token was rejected, exchange a new one"). A rejected token is
 * never handed back, whether cached or freshly issued.
 */
export async function sharedAccessToken(
	credentials: ClientCredentials,
	rejectedToken: string | undefined,
	exchange: Exchange,
): Promise<string> {
	const key = cacheKey(credentials);
	let entry = entries.get(key);
	if (entry === undefined) {
		entry = { usableUntil: 0 };
		entries.set(key, entry);
	}

	if (entry.pending === undefined) {
		const cachedIsUsable =
			entry.token !== undefined && entry.token !== rejectedToken && Date.now() < entry.usableUntil;
		if (cachedIsUsable) return entry.token as string;
		entry.pending = startExchange(entry, exchange);
	}

	const issued = await entry.pending;
	if (issued.token === rejectedToken) {
		throw new TokenExchangeError(
			`The Consignment Vendor token endpoint ${tokenUrlFor(credentials.authUrl)} issued the same access token the API had just rejected (HTTP 401), so retrying cannot help`,
			'Check that the Base URL and the Auth URL belong to the same environment, and that the user who generated the Client ID and Client Secret may use the vendor API.',
		);
	}
	return issued.token;
}

/** Forgets every shared token. Only for tests: the sandbox's reset revokes tokens this process still holds. */
export function forgetSharedAccessTokens(): void {
	entries.clear();
}

function startExchange(entry: SharedEntry, exchange: Exchange): Promise<IssuedToken> {
	const startedAt = Date.now();
	// The token that was cached may be the rejected one: stop handing it out right away.
	entry.token = undefined;
	const pending = exchange().then(
		(issued) => {
			const margin = Math.min(EXPIRY_MARGIN_SECONDS, issued.lifetimeSeconds / 10);
			// Counted from when the request left, so the cache can only end before the real expiry.
			entry.token = issued.token;
			entry.usableUntil = startedAt + (issued.lifetimeSeconds - margin) * 1000;
			entry.pending = undefined;
			return issued;
		},
		(error: unknown) => {
			// A failure is shared by everyone who waited for this exchange, but never cached.
			entry.pending = undefined;
			throw error;
		},
	);
	return pending;
}

/** The secret is part of the key (a regenerated secret must not reuse the old token) but only as a hash. */
function cacheKey({ authUrl, clientId, clientSecret }: ClientCredentials): string {
	const secretHash = createHash('sha256').update(clientSecret).digest('hex');
	return JSON.stringify([tokenUrlFor(authUrl), clientId, secretHash]);
}
