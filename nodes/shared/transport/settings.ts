/**
 * What a node's requests are sent with: pacing, timeout, proxy and SSL, from the node's "Request Options" and their
 * defaults. Found by the transport from the context a request is made with (`requestSettingsOf`), so no caller can
 * forget them; carried by each request, so two workflows sharing a credential keep their own limits inside the one
 * queue (scheduler.ts).
 */

export interface RequestSettings {
	/** Requests of this credential in flight at once, from this node. */
	maxConcurrent: number;
	/** A fixed ceiling for users who know their quota; undefined = adaptive (learned from 429s). */
	maxRequestsPerSecond?: number;
	/** Give a waiting request up when no request of the credential has succeeded for this long. */
	noProgressLimitMs: number;
	/**
	 * Give a request up when it has waited (queued, paused, repeated) this long in all; one that could not be sent
	 * (again) by then is given up before it is sent.
	 */
	maxWaitMs: number;
	/** Per request: no answer within this time is a timeout (a hung endpoint never blocks the queue). */
	timeoutMs: number;
	/** n8n's own Proxy and Ignore SSL Issues options (Request Options), applied by `apiRequest`. */
	proxy?: string;
	allowUnauthorizedCerts?: boolean;
}

export const DEFAULT_REQUEST_SETTINGS: Readonly<RequestSettings> = {
	maxConcurrent: 32,
	noProgressLimitMs: 2 * 60_000,
	maxWaitMs: 15 * 60_000,
	timeoutMs: 60_000,
};

/**
 * The parameter the action node keeps these in: the name n8n gives the "Request Options" node setting of
 * declarative nodes (batching, proxy, timeout in ms), which the node was; its Timeout is the one timeout.
 */
export const REQUEST_OPTIONS_PARAMETER = 'requestOptions';

/** What the user entered in Request Options (numbers in the units the fields show). */
export interface RequestOptionsValue {
	maxConcurrent?: number;
	maxRequestsPerSecond?: number;
	giveUpAfterNoSuccessSeconds?: number;
	maxWaitMinutes?: number;
	/** n8n's own options: in ms; a proxy URL; Ignore SSL Issues. */
	timeout?: number;
	proxy?: string;
	allowUnauthorizedCerts?: boolean;
}

function positive(value: unknown): number | undefined {
	const number = Number(value);
	return value !== undefined && value !== null && value !== '' && Number.isFinite(number) && number > 0 ? number : undefined;
}

/** Settings from a Request Options value; anything missing, zero or unreadable takes the default. */
export function requestSettingsFrom(value: unknown): RequestSettings {
	const options = (typeof value === 'object' && value !== null ? value : {}) as RequestOptionsValue;
	const seconds = (v: unknown) => (positive(v) === undefined ? undefined : (positive(v) as number) * 1000);
	return {
		maxConcurrent: Math.max(1, Math.floor(positive(options.maxConcurrent) ?? DEFAULT_REQUEST_SETTINGS.maxConcurrent)),
		maxRequestsPerSecond: positive(options.maxRequestsPerSecond),
		noProgressLimitMs: seconds(options.giveUpAfterNoSuccessSeconds) ?? DEFAULT_REQUEST_SETTINGS.noProgressLimitMs,
		maxWaitMs: (positive(options.maxWaitMinutes) ?? DEFAULT_REQUEST_SETTINGS.maxWaitMs / 60_000) * 60_000,
		timeoutMs: positive(options.timeout) ?? DEFAULT_REQUEST_SETTINGS.timeoutMs,
		...(typeof options.proxy === 'string' && options.proxy.trim() !== '' ? { proxy: options.proxy.trim() } : {}),
		...(options.allowUnauthorizedCerts === true ? { allowUnauthorizedCerts: true } : {}),
	};
}

const settingsByContext = new WeakMap<object, RequestSettings>();

/**
 * The Request Options of the node a context runs, read once per context: n8n makes one per run of a node (and per
 * list search), so a run reads them once, whichever operation or helper makes the request. Nodes without the
 * option (the triggers) get the defaults.
 */
export function requestSettingsOf(context: object): RequestSettings {
	let settings = settingsByContext.get(context);
	if (settings === undefined) {
		settings = requestSettingsFrom(requestOptionsOf(context));
		settingsByContext.set(context, settings);
	}
	return settings;
}

function requestOptionsOf(context: object): unknown {
	const { getNodeParameter, getInputData } = context as { getNodeParameter?: (...args: unknown[]) => unknown; getInputData?: unknown };
	if (typeof getNodeParameter !== 'function') return {};
	// A node run reads node-wide settings from its first item; the other contexts take (name, fallback).
	return typeof getInputData === 'function'
		? getNodeParameter.call(context, REQUEST_OPTIONS_PARAMETER, 0, {})
		: getNodeParameter.call(context, REQUEST_OPTIONS_PARAMETER, {});
}
