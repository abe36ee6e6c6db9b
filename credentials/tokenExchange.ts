import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { unqueuedRequest } from '../nodes/shared/transport';
import { describeSsrfRefusal, ssrfRefusalOf } from '../nodes/shared/ssrfRefusal';

/** The path of the token exchange in the contract (docs/vendor-api.md, Endpoints > Token), relative to the Auth URL. */
const EXCHANGE_PATH = '/api/v1/bearer-token';

/** The contract fixes every token's lifetime at one hour; used when an answer omits `expires_in`. */
const CONTRACT_TOKEN_LIFETIME_SECONDS = 3600;

/** A token endpoint that has not answered by then will not: fail the exchange (and everyone waiting on it). */
const EXCHANGE_TIMEOUT_MS = 30_000;

/** Longest service message quoted in an error, so an HTML error page cannot flood the UI. */
const MAX_QUOTED_MESSAGE_LENGTH = 300;

export interface ClientCredentials {
	authUrl: string;
	clientId: string;
	clientSecret: string;
}

export interface IssuedToken {
	token: string;
	lifetimeSeconds: number;
}

export type HttpRequest = (options: IHttpRequestOptions) => Promise<unknown>;

/**
 * A plain Error of strings we composed: n8n and axios errors hold the request config (with the client secret),
 * so they are never rethrown or attached as `cause`. No `status`/`code` either: NodeApiError would replace our
 * message with "Authorization failed" and, for a 401, n8n-core would retry.
 */
export class TokenExchangeError extends Error {
	readonly description: string;

	constructor(message: string, description: string) {
		super(message);
		this.name = 'TokenExchangeError';
		this.description = description;
	}
}

/** `{authUrl}/api/v1/bearer-token`, tolerating trailing slashes and an Auth URL that already ends in the path. */
export function tokenUrlFor(authUrl: string): string {
	const base = authUrl.trim().replace(/\/+$/, '');
	return base.endsWith(EXCHANGE_PATH) ? base : `${base}${EXCHANGE_PATH}`;
}

export async function exchangeClientCredentials(
	httpRequest: HttpRequest,
	credentials: ClientCredentials,
): Promise<IssuedToken> {
	const url = tokenUrlFor(credentials.authUrl);
	const shownUrl = withoutUserInfo(url);

	let response: IN8nHttpFullResponse | undefined;
	let networkFailure: unknown;
	try {
		// Status errors are read from the answer below, so no error object (holding the body) is thrown.
		response = await unqueuedRequest(
			httpRequest,
			{
				method: 'POST',
				url,
				headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
				body: { client_id: credentials.clientId, client_secret: credentials.clientSecret },
				json: true,
			},
			{ timeoutMs: EXCHANGE_TIMEOUT_MS },
		);
	} catch (error) {
		networkFailure = error;
	}
	// Thrown after the catch: n8n's scanner (require-node-api-error) accepts only Node*Error inside a catch, and
	// there is no node here; n8n-core wraps what preAuthentication throws in NodeApiError itself.
	const refusal = ssrfRefusalOf(networkFailure);
	if (response === undefined && refusal !== undefined) {
		const { message, description } = describeSsrfRefusal(refusal, `the token endpoint ${shownUrl}, from the Auth URL`);
		throw new TokenExchangeError(message, description);
	}
	if (response === undefined) {
		throw new TokenExchangeError(
			`Could not reach the Consignment Vendor token endpoint ${shownUrl}: ${networkFailureReason(networkFailure)}`,
			'Check the Auth URL in the credential (the host of the token endpoint, for example https://auth.example.com) and that n8n can reach it.',
		);
	}

	const status = Number(response.statusCode);
	const body = parseBody(response.body);
	if (status < 200 || status > 299) {
		const serviceMessage = quotedServiceMessage(body, credentials);
		throw new TokenExchangeError(
			`The Consignment Vendor token endpoint ${shownUrl} answered HTTP ${status}${serviceMessage ? `: ${serviceMessage}` : ' without a message'}`,
			hintForStatus(status),
		);
	}

	const token = firstNonEmptyString(body.bearer_token, body.access_token);
	if (token === undefined) {
		throw new TokenExchangeError(
			`The Consignment Vendor token endpoint ${shownUrl} answered HTTP ${status} without a token (expected "bearer_token" or "access_token" in its JSON body)`,
			'Check that the Auth URL points at the token service, not at the API or a web page.',
		);
	}
	return { token, lifetimeSeconds: lifetimeOf(body.expires_in) };
}

function hintForStatus(status: number): string {
	if (status === 400 || status === 401 || status === 403) {
		return 'Check the Client ID and Client Secret in the credential. They are generated (or regenerated) in the vendor portal by a user with permission to manage API access.';
	}
	if (status === 404 || status === 405) {
		return 'Check the Auth URL: enter the token service\'s address without /api/v1/bearer-token (for example https://auth.example.com, or https://example.com/auth when it sits under a path); the node appends /api/v1/bearer-token itself.';
	}
	if (status === 429 || status >= 500) {
		return 'The token service is unavailable or overloaded right now. Try again later.';
	}
	return 'Check the Auth URL, Client ID and Client Secret in the credential.';
}

function parseBody(body: unknown): IDataObject {
	if (typeof body === 'string') {
		try {
			const parsed: unknown = JSON.parse(body);
			return isObject(parsed) ? parsed : { message: body };
		} catch {
			return { message: body };
		}
	}
	return isObject(body) ? body : {};
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstNonEmptyString(...values: unknown[]): string | undefined {
	return values.find((value): value is string => typeof value === 'string' && value !== '');
}

function lifetimeOf(expiresIn: unknown): number {
	const seconds = Number(expiresIn);
	return Number.isFinite(seconds) && seconds > 0 ? seconds : CONTRACT_TOKEN_LIFETIME_SECONDS;
}

/** The service's own words (`message`, else `error`/`error_description`), cleaned of anything secret. */
function quotedServiceMessage(body: IDataObject, credentials: ClientCredentials): string {
	const raw = firstNonEmptyString(
		body.message,
		body.error_description,
		typeof body.error === 'string' ? body.error : undefined,
	);
	return raw === undefined ? '' : safeText(raw, credentials);
}

/**
 * From the error's `code` only, never its config (it holds the body). Words, not the raw code: NodeApiError swaps
 * any message containing ECONNREFUSED, GETADDRINFO… for a generic sentence without the token URL.
 */
const NETWORK_FAILURES: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused (nothing is listening at that address)',
	ECONNRESET: 'the connection was closed before an answer arrived',
	ECONNABORTED: 'the request timed out',
	ETIMEDOUT: 'the connection timed out',
	ENOTFOUND: 'its host name could not be resolved',
	EAI_AGAIN: 'its host name could not be resolved (the name lookup failed)',
	EHOSTUNREACH: 'its host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	EADDRNOTAVAIL: 'its address is not available',
	ERR_INVALID_URL: 'the Auth URL is not a valid URL',
};

/** The codes n8n-workflow's NodeError rewords when they appear anywhere in a message (its COMMON_ERRORS). */
const CODES_N8N_REWORDS = [
	'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'ERRADDRINUSE', 'EADDRNOTAVAIL', 'ECONNABORTED',
	'EHOSTUNREACH', 'EAI_AGAIN', 'ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES', 'EEXIST', 'EPERM', 'GETADDRINFO',
];

function networkFailureReason(error: unknown): string {
	const code = (error as { code?: unknown } | null)?.code;
	if (typeof code !== 'string' || code === '') return 'the request failed before an answer arrived';
	if (code in NETWORK_FAILURES) return NETWORK_FAILURES[code];
	if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS/.test(code)) return `its TLS certificate was not accepted (${code})`;
	const codeIsSafeToQuote = !CODES_N8N_REWORDS.some((reworded) => code.toUpperCase().includes(reworded));
	return `the request failed before an answer arrived${codeIsSafeToQuote ? ` (${code})` : ''}`;
}

function safeText(text: string, credentials: ClientCredentials): string {
	let cleaned = text.replace(/\s+/g, ' ').trim();
	if (credentials.clientSecret !== '') cleaned = cleaned.split(credentials.clientSecret).join('***');
	return cleaned.length > MAX_QUOTED_MESSAGE_LENGTH
		? `${cleaned.slice(0, MAX_QUOTED_MESSAGE_LENGTH)}…`
		: cleaned;
}

/** A URL as shown in messages: without `user:password@` if someone put credentials into it. */
function withoutUserInfo(url: string): string {
	try {
		const parsed = new URL(url);
		if (parsed.username === '' && parsed.password === '') return url;
		parsed.username = '';
		parsed.password = '';
		return parsed.toString();
	} catch {
		return url;
	}
}
