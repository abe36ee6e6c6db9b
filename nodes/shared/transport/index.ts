/**
 * Every HTTP request the package sends goes through here:
 * - `apiRequest`: an API call from node code (custom operations, resource-locator lists, the trigger's
 *   activation and deactivation), authenticated with the credential;
 * - `unqueuedRequest`: requests that must not wait in the API queue: the token exchange (requests in the queue
 *   hold their slot while n8n exchanges a token for them, so queueing the exchange could deadlock) and label
 *   downloads (another host); they get the same timeout and retry rules, without the shared pacing.
 * API calls share one scheduler per (base URL, client id) in this process (scheduler.ts); those of the editor and
 * of the trigger's activation go ahead of queued bulk work (`isInteractive`).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../credential';
import { cancelSignalOf } from './cancelWatch';
import { authenticatedRequest, dropHeldToken } from './heldToken';
import { RequestScheduler } from './scheduler';
import { backoffMs, RATE_LIMIT_BACKOFF, retryAfterMs, TRANSIENT_RETRY } from './retryRules';
import { DEFAULT_REQUEST_SETTINGS, requestSettingsOf, type RequestSettings } from './settings';

export { DEFAULT_REQUEST_SETTINGS, requestSettingsFrom, requestSettingsOf, REQUEST_OPTIONS_PARAMETER, type RequestSettings } from './settings';
export { retryOutcomeOf, type RetryOutcome } from './outcome';

/** Node contexts that can make authenticated requests with the credential. */
export type ApiContext = IExecuteFunctions | IExecuteSingleFunctions | ILoadOptionsFunctions | IHookFunctions | IPollFunctions;

const schedulers = new Map<string, RequestScheduler>();

/** One key per credential's API (base URL and client id): what the queue and the node's per-service memories share. */
export function credentialKey(baseUrl: string, clientId: string): string {
	return JSON.stringify([baseUrl.replace(/\/+$/, '').toLowerCase(), clientId.trim()]);
}

/** The queue of one credential's API (one per process, whatever workflow or execution uses it). */
export function schedulerFor(baseUrl: string, clientId: string): RequestScheduler {
	const key = credentialKey(baseUrl, clientId);
	let scheduler = schedulers.get(key);
	if (scheduler === undefined) {
		scheduler = new RequestScheduler();
		schedulers.set(key, scheduler);
	}
	return scheduler;
}

/** Only for tests: a fresh queue per credential. */
export function forgetSchedulers(): void {
	schedulers.clear();
}

interface CredentialTarget {
	baseUrl: string;
	clientId: string;
}

const targets = new WeakMap<object, Promise<CredentialTarget>>();

/**
 * Base URL (without trailing slashes) and client id, read once per node context. n8n makes a context per run of a
 * node, except for a polling trigger: one poll context serves every poll of an activation, so a poll must call
 * `forgetCredentialTarget` first to see a credential edited since the last one.
 */
export async function credentialTarget(context: ApiContext): Promise<CredentialTarget> {
	let target = targets.get(context);
	if (target === undefined) {
		target = context.getCredentials(CREDENTIAL_TYPE).then((credentials) => {
			const baseUrl = String(credentials.baseUrl ?? '').trim().replace(/\/+$/, '');
			if (baseUrl === '') throw new Error('The Consignment Vendor API credential has no Base URL: open the credential and fill it in');
			return { baseUrl, clientId: String(credentials.clientId ?? '') };
		});
		targets.set(context, target);
	}
	return await target;
}

/** The next `credentialTarget` of this context, and its next request's token, read the credential again (see there). */
export function forgetCredentialTarget(context: ApiContext): void {
	targets.delete(context);
	dropHeldToken(context);
}

/**
 * Whether a person is waiting for this context's requests: the editor's list searches and resource-locator
 * lookups (load-options context) and the trigger's activation and deactivation (hook context), which n8n gives
 * 30 s. Those contexts have no input items; an execution's contexts do. Decided here from the context, so that
 * no caller can forget it: their requests pass queued bulk work (scheduler.ts).
 */
function isInteractive(context: ApiContext): boolean {
	if (typeof (context as { getInputData?: unknown }).getInputData === 'function') return false;
	// A poll on n8n's schedule waits for nobody (and may read thousands of pages); Fetch Test Event is a person's.
	if (typeof (context as { __emit?: unknown }).__emit === 'function') return (context as IPollFunctions).getMode() === 'manual';
	return true;
}

async function scheduled<T>(
	context: ApiContext,
	method: string,
	settings: RequestSettings,
	send: () => Promise<T>,
	withdrawal?: AbortSignal,
	interactive?: boolean,
): Promise<T> {
	const { baseUrl, clientId } = await credentialTarget(context);
	// The signals are watched as they are: a composite (AbortSignal.any) per request would be one more object
	// per request hanging on the execution's signal.
	return await schedulerFor(baseUrl, clientId).run({
		method,
		send,
		settings,
		signals: [cancelSignalOf(context)],
		withdrawal,
		interactive: interactive ?? isInteractive(context),
	});
}

/** n8n's Proxy option (a URL) in the form n8n's request helper takes, as RoutingNode reads it; undefined if not a URL. */
function proxyOption(proxy: string): IHttpRequestOptions['proxy'] {
	let url: URL;
	try {
		url = new URL(proxy);
	} catch {
		return undefined;
	}
	const protocol = url.protocol.replace(/:$/, '');
	return {
		host: url.hostname,
		port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80,
		protocol,
		...(url.username ? { auth: { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } } : {}),
	};
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path under the credential's Base URL, e.g. `/v1/vendor`. */
	url: string;
	qs?: IDataObject;
	body?: IDataObject;
	/**
	 * The caller's stop, besides the execution's cancellation: when aborted, the request leaves the queue if it has
	 * not been sent; a write already on the wire is waited for (its answer says whether it was carried out) and not
	 * sent again (scheduler.ts, `withdrawal`).
	 */
	signal?: AbortSignal;
	/**
	 * Whether a person (or n8n's activation) waits for it; undefined: decided from the context (`isInteractive`).
	 * Only a poll context needs to say: the same context runs the activation's poll, which n8n waits for, and the
	 * scheduled ones.
	 */
	interactive?: boolean;
}

/**
 * One API request with the credential, through its queue, with the Request Options of the node `context` runs
 * (`requestSettingsOf`); `overrides` for a caller with its own patience (the trigger's registration calls). Resolves
 * with the full response (a 207 is a 2xx that must not be read as success); throws n8n's request error otherwise
 * (map it with errors.ts).
 */
export async function apiRequest(
	context: ApiContext,
	request: ApiRequest,
	overrides?: Partial<RequestSettings>,
): Promise<IN8nHttpFullResponse> {
	const settings = overrides ? { ...requestSettingsOf(context), ...overrides } : requestSettingsOf(context);
	const { baseUrl } = await credentialTarget(context);
	const proxy = settings.proxy === undefined ? undefined : proxyOption(settings.proxy);
	if (settings.proxy !== undefined && proxy === undefined) {
		throw new NodeOperationError(context.getNode(), 'Request Options → Proxy is not a valid URL (e.g. http://proxy.example.com:3128)');
	}
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: baseUrl,
		url: request.url,
		qs: request.qs,
		body: request.body,
		headers: { Accept: 'application/json' },
		json: true,
		returnFullResponse: true,
		timeout: settings.timeoutMs,
		...(proxy ? { proxy } : {}),
		...(settings.allowUnauthorizedCerts ? { skipSslCertificateValidation: true } : {}),
	};
	return (await scheduled(
		context,
		request.method,
		settings,
		async () => await authenticatedRequest(context, options),
		request.signal,
		request.interactive,
	)) as IN8nHttpFullResponse;
}

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Lets go of an answer's body that will not be read (a stream when the caller asked for one): an unread stream
 * keeps its connection and buffers until the process ends.
 */
export function discardBody(body: unknown): void {
	const stream = body as { destroy?: () => void } | null | undefined;
	if (typeof stream?.destroy === 'function') stream.destroy();
}

export interface UnqueuedRequestLimits {
	/** Per attempt. */
	timeoutMs?: number;
	/** The longest Retry-After waited for. */
	maxPauseMs?: number;
	/**
	 * When the caller stops waiting (epoch ms): no try starts, and no wait for one runs, past it; each try's
	 * timeout is what is left. Without it, a 503 asking for 30 s made a 15 s label download take 90 s.
	 */
	deadlineAt?: number;
}

/**
 * A request outside the API queue (see the file comment), made with `httpRequest` and `ignoreHttpStatusErrors`
 * so the caller reads the status. A 429/502/503/504 answer or a broken connection is repeated a few times with
 * backoff (the service's Retry-After when it gives one, up to `maxPauseMs`, and never past `deadlineAt`); the last
 * answer is returned as is, the bodies of those repeated are discarded.
 */
export async function unqueuedRequest(
	httpRequest: (options: IHttpRequestOptions) => Promise<unknown>,
	options: IHttpRequestOptions,
	{ timeoutMs = DEFAULT_REQUEST_SETTINGS.timeoutMs, maxPauseMs = 30_000, deadlineAt = Number.POSITIVE_INFINITY }: UnqueuedRequestLimits = {},
): Promise<IN8nHttpFullResponse> {
	/** Whether a try after waiting `ms` still starts before the deadline. */
	const timeLeftAfter = (ms: number) => Date.now() + ms < deadlineAt;
	for (let attempt = 1; ; attempt++) {
		const last = attempt >= TRANSIENT_RETRY.maxAttempts;
		const timeout = Math.max(1, Math.min(timeoutMs, deadlineAt - Date.now()));
		const thisTry = new AbortController();
		const abortSignal = options.abortSignal ? AbortSignal.any([options.abortSignal as AbortSignal, thisTry.signal]) : thisTry.signal;
		const prepared: IHttpRequestOptions = { ...options, abortSignal, timeout, ignoreHttpStatusErrors: true, returnFullResponse: true };
		const sent = await httpRequest(prepared).then(
			(answer) => ({ answer: answer as IN8nHttpFullResponse }),
			(error: unknown) => ({ error }),
		);
		if ('error' in sent) {
			// No answer: a connection that broke is worth another try; a timeout is not (it would only hang again).
			// The caller words the error (it knows which endpoint this was).
			const code = (sent.error as { code?: unknown } | null)?.code;
			const pause = backoffMs(attempt, TRANSIENT_RETRY.baseDelayMs, TRANSIENT_RETRY.maxBackoffMs);
			if (last || !['ECONNRESET', 'EPIPE'].includes(String(code)) || !timeLeftAfter(pause)) return await Promise.reject(sent.error);
			await sleep(pause);
			continue;
		}
		const response = sent.answer;
		const status = Number(response.statusCode);
		if (last || !RETRYABLE_STATUSES.has(status)) return response;
		const asked = retryAfterMs((response.headers ?? {}) as IDataObject);
		if (asked !== undefined && asked > maxPauseMs) return response;
		const base = status === 429 ? RATE_LIMIT_BACKOFF.baseDelayMs : TRANSIENT_RETRY.baseDelayMs;
		const pause = Math.max(asked ?? 0, backoffMs(attempt, base, TRANSIENT_RETRY.maxBackoffMs));
		if (!timeLeftAfter(pause)) return response;
		// Destroying the stream alone would not do: axios hands out a wrapper that, unread, never closes the
		// response under it; aborting the try closes the connection.
		thisTry.abort();
		discardBody(response.body);
		await sleep(pause);
	}
}
