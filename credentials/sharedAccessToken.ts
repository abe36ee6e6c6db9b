import { createHash } from 'crypto';

import { TOKEN_REPLACED_MESSAGE } from '../nodes/shared/transport/retryRules';
import {
	TokenExchangeError,
	tokenUrlFor,
	type ClientCredentials,
	type IssuedToken,
} from './tokenExchange';

/**
 * One client's token as this process knows it. Within a process, n8n starts every item's request at once (all
 * with an empty token, or all getting a 401 together): one exchange or check serves them all.
 * Across processes (queue mode) only the credential in n8n's database is shared, re-read per request, last writer
 * wins; a service may keep one active token per client, so an exchange revokes every other process's token, and
 * n8n retries a 401 only once. So:
 * - a 401 is answered only with a token the API accepted just now (`verify`);
 * - a token seen on a request (maybe another process's) is checked before exchanging, so processes settle on one;
 * - a process exchanges at most once per `MIN_EXCHANGE_INTERVAL_MS`: its own token failing that soon was probably
 *   replaced by another process. Then, and when a new token is rejected at once, it throws `TokenReplacedError`:
 *   the request queue resends the request after a pause, with the token n8n reads afresh.
 */
interface ClientTokens {
	/** The last token this process exchanged or checked, and until when it may be handed out unchecked. */
	own?: { token: string; usableUntil: number };
	/** The last token a request carried (n8n read it from the credential), unless known to be rejected. */
	seen?: string;
	/** Tokens the API answered 401 to, newest last (bounded). */
	rejected: string[];
	lastExchangeAt: number;
	pending?: Promise<string>;
}

/** Stop handing out a cached token this long before it lapses (at most 10% of its lifetime). */
const EXPIRY_MARGIN_SECONDS = 60;
/** A token adopted after a check (another process's) is handed out unchecked only this long. */
const ADOPTED_TOKEN_USABLE_MS = 60_000;
export const MIN_EXCHANGE_INTERVAL_MS = 3_000;
/** A resolution can end with a token that was rejected meanwhile; try again only this often. */
const MAX_ROUNDS = 3;
const MAX_REMEMBERED_REJECTIONS = 16;

type Exchange = () => Promise<IssuedToken>;
type Verify = (token: string) => Promise<TokenCheck>;
export type TokenCheck = 'valid' | 'rejected' | 'unknown';

/** The request queue resends on `resendWithStoredToken` (transport/retryRules.ts), so n8n re-reads the credential. */
export class TokenReplacedError extends TokenExchangeError {
	readonly resendWithStoredToken = true;

	constructor() {
		super(
			TOKEN_REPLACED_MESSAGE,
			'Either another n8n process (queue mode) or another app using the same Client ID replaced it (the request is then sent again with the token stored in the credential), or the Base URL and the Auth URL belong to different environments. If this keeps happening, check both URLs, and that no other app uses the same Client ID and Client Secret.',
		);
		this.name = 'TokenReplacedError';
	}
}

const clients = new Map<string, ClientTokens>();

/**
 * `rejectedToken`: n8n passes the token it just sent after a 401 (n8n-core's `credentialsExpired`) or on a
 * credential test: "find a working one"; undefined when the stored token is empty.
 */
export async function sharedAccessToken(
	credentials: ClientCredentials,
	rejectedToken: string | undefined,
	exchange: Exchange,
	verify: Verify,
): Promise<string> {
	const state = stateOf(credentials);
	if (rejectedToken === undefined) {
		const { own } = state;
		if (state.pending === undefined && own !== undefined && !isRejected(state, own.token) && Date.now() < own.usableUntil) {
			return own.token;
		}
		return await resolved(state, () => resolveToken(state, credentials, false, exchange, verify));
	}
	markRejected(state, rejectedToken);
	for (let round = 1; ; round++) {
		const token = await resolved(state, () => resolveToken(state, credentials, true, exchange, verify));
		// A resolution that started before this caller's token was rejected may end with that very token.
		if (!isRejected(state, token)) return token;
		if (round >= MAX_ROUNDS) throw new TokenReplacedError();
	}
}

/**
 * The state the last request's token was noted in. Page after page carries the same token: then the state already
 * holds it as `seen`, and its key (a hash of the secret) is not computed again for every request. This keeps no
 * secret of its own: a token is only compared with the one the state holds anyway.
 */
let lastNoted: ClientTokens | undefined;

/** The token a request carries may be another process's: the first candidate when a 401 needs a replacement. */
export function noteTokenInUse(credentials: ClientCredentials, token: string): void {
	if (token === '' || lastNoted?.seen === token) return;
	const state = stateOf(credentials);
	if (!isRejected(state, token)) state.seen = token;
	lastNoted = state;
}

/** For tests: the sandbox's reset revokes tokens this process holds. */
export function forgetSharedAccessTokens(): void {
	clients.clear();
	lastNoted = undefined;
}

/** One resolution at a time per client: concurrent callers share it (and its failure, which is not kept). */
async function resolved(state: ClientTokens, resolve: () => Promise<string>): Promise<string> {
	state.pending ??= resolve().finally(() => {
		state.pending = undefined;
	});
	return await state.pending;
}

async function resolveToken(
	state: ClientTokens,
	credentials: ClientCredentials,
	afterRejection: boolean,
	exchange: Exchange,
	verify: Verify,
): Promise<string> {
	if (afterRejection) {
		const working = await workingKnownToken(state, verify);
		if (working !== undefined) return working;
		// Exchanged moments ago and already rejected: another process probably replaced it. Resend rather than
		// revoke its token with an exchange of our own.
		if (Date.now() - state.lastExchangeAt < MIN_EXCHANGE_INTERVAL_MS) {
			// Unless ours still works: n8n's credential Test passes the token it holds with no 401 behind it.
			const own = state.own?.token;
			if (own !== undefined && isRejected(state, own) && (await verify(own)) === 'valid') {
				state.rejected = state.rejected.filter((token) => token !== own);
				return own;
			}
			throw new TokenReplacedError();
		}
	}

	const startedAt = Date.now();
	state.lastExchangeAt = startedAt;
	const issued = await exchange();
	if (isRejected(state, issued.token)) {
		throw new TokenExchangeError(
			`The Consignment Vendor token endpoint ${tokenUrlFor(credentials.authUrl)} issued the same access token the API had just rejected (HTTP 401), so retrying cannot help`,
			'Check that the Base URL and the Auth URL belong to the same environment, and that the user who generated the Client ID and Client Secret may use the vendor API.',
		);
	}
	const margin = Math.min(EXPIRY_MARGIN_SECONDS, issued.lifetimeSeconds / 10);
	// Counted from when the request left, so the cache can only end before the real expiry.
	state.own = { token: issued.token, usableUntil: startedAt + (issued.lifetimeSeconds - margin) * 1000 };
	// After a 401 the new token is checked too: another process's exchange may already have revoked it.
	if (afterRejection && (await verify(issued.token)) === 'rejected') {
		markRejected(state, issued.token);
		throw new TokenReplacedError();
	}
	return issued.token;
}

/** Another process's token (seen on a request) first, then this process's own: checked, never handed out unchecked. */
async function workingKnownToken(state: ClientTokens, verify: Verify): Promise<string | undefined> {
	for (const candidate of new Set([state.seen, state.own?.token])) {
		if (candidate === undefined || isRejected(state, candidate)) continue;
		const check = await verify(candidate);
		if (check === 'valid') {
			if (state.own?.token !== candidate) state.own = { token: candidate, usableUntil: Date.now() + ADOPTED_TOKEN_USABLE_MS };
			return candidate;
		}
		if (check === 'rejected') markRejected(state, candidate);
	}
	return undefined;
}

function stateOf(credentials: ClientCredentials): ClientTokens {
	const key = cacheKey(credentials);
	let state = clients.get(key);
	if (state === undefined) {
		state = { rejected: [], lastExchangeAt: Number.NEGATIVE_INFINITY };
		clients.set(key, state);
	}
	return state;
}

function isRejected(state: ClientTokens, token: string): boolean {
	return state.rejected.includes(token);
}

function markRejected(state: ClientTokens, token: string): void {
	if (isRejected(state, token)) return;
	state.rejected.push(token);
	if (state.rejected.length > MAX_REMEMBERED_REJECTIONS) state.rejected.shift();
	if (state.seen === token) state.seen = undefined;
}

/** The secret is part of the key (a regenerated secret must not reuse the old token) but only as a hash. */
function cacheKey({ authUrl, clientId, clientSecret }: ClientCredentials): string {
	const secretHash = createHash('sha256').update(clientSecret).digest('hex');
	return JSON.stringify([tokenUrlFor(authUrl), clientId, secretHash]);
}
