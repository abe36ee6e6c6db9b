// The HTTP handling: /__sandbox/* goes to the admin router; everything else (the API, and the label downloads) is
// logged, may be shaped by an injected fault, is authenticated when its route needs it, then handled.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

import { buildAdminRouter } from './admin';
import type { AuthContext } from './auth';
import { HttpError, parseBody, queryObject, readRawBody, sendResponse, type ApiResponse, type ParsedBody } from './http';
import { buildApiRouter } from './routes';
import { CREDENTIAL_EXCHANGE_PATH } from './routes/token';
import type { RouteContext, Router } from './router';
import type { Sandbox } from './sandbox';
import { outageAnswer } from './faults';
import type { FaultKind } from './types';

export const ADMIN_PREFIX = '/__sandbox';

/** The request handler of one sandbox (index.ts attaches it once the server listens and its origin is known). */
export function sandboxRequestListener(sandbox: Sandbox): RequestListener {
	const api = buildApiRouter(sandbox);
	const admin = buildAdminRouter(sandbox);
	return (req, res) => {
		const url = new URL(req.url ?? '/', 'http://sandbox.local');
		const handle = url.pathname.startsWith(ADMIN_PREFIX)
			? handleAdmin(admin, req, res, url)
			: handleApi(sandbox, api, req, res, url);
		handle.catch((error: unknown) => {
			if (!res.headersSent) sendResponse(res, { status: 500, body: { error: `Sandbox bug: ${(error as Error).message}` } });
		});
	};
}

async function handleAdmin(router: Router, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
	const body = parseBody(await readRawBody(req), req.headers['content-type']);
	sendResponse(res, await dispatch(router, req, url, body, () => undefined));
}

async function handleApi(
	sandbox: Sandbox,
	router: Router<AuthContext>,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
): Promise<void> {
	const method = req.method ?? 'GET';
	const raw = await readRawBody(req);
	const body = parseBody(raw, req.headers['content-type']);
	const entry = {
		method,
		path: url.pathname,
		query: queryObject(url),
		body: logBody(body),
		authorized: req.headers.authorization !== undefined,
		status: 0,
		at: sandbox.clock.nowIso(),
	};
	// The service's Date header is on the service's own clock (Node would send the machine's): the Item Trigger
	// compares it with the items' updated_at, which the sandbox writes with its clock. A sandbox told to send none
	// sends none (not Node's own either).
	const dated = (response: ApiResponse): ApiResponse => {
		if (!sandbox.clock.sendsDate) {
			res.sendDate = false;
			return response;
		}
		return { ...response, headers: { Date: new Date(sandbox.clock.nowMs()).toUTCString(), ...response.headers } };
	};
	const log = sandbox.requestLog;
	const arrived = performance.now();
	const took = () => Math.round(performance.now() - arrived);
	const record = (status: number, fault?: FaultKind) =>
		log.push(fault ? { ...entry, status, fault, durationMs: took() } : { ...entry, status, durationMs: took() });

	// The rate limiter decides on arrival, before faults: a refused request is not processed and uses up no fault.
	const limit = sandbox.rateLimiter.take(clientOf(sandbox, method, url.pathname, req, body));
	if (!limit.allowed) {
		await pause(sandbox.latencyMs);
		log.push({ ...entry, status: 429, rateLimited: true, durationMs: took() });
		sendResponse(res, dated({ status: 429, body: { message: 'Too many requests' }, headers: limit.headers }));
		return;
	}

	const decision = sandbox.faults.take(method, url.pathname);
	await pause(sandbox.latencyMs + decision.latencyMs);
	const faultLabel = decision.terminal?.kind ?? decision.kinds[0];
	if (decision.terminal?.kind === 'drop') {
		record(0, 'drop');
		req.socket.destroy();
		return;
	}
	let response: ApiResponse;
	if (decision.terminal?.kind === 'rateLimit') {
		response = {
			status: 429,
			body: { message: 'Too many requests' },
			headers: { 'Retry-After': String(decision.terminal.retryAfterSeconds ?? 1) },
		};
	} else if (decision.terminal?.kind === 'outage') {
		response = outageAnswer(decision.terminal);
	} else if (decision.terminal?.kind === 'status') {
		const status = decision.terminal.status ?? 500;
		const body = decision.terminal.body ?? (status === 401 ? { message: 'Injected fault' } : { error: 'Injected fault' });
		response = { status, body };
	} else {
		// Routes without auth (the token endpoint) never read ctx.auth.
		response = await dispatch(router, req, url, body, (requiresAuth) =>
			requiresAuth
				? sandbox.tokens.verify(req.headers.authorization, sandbox.clock.nowMs())
				: (undefined as unknown as AuthContext),
		);
	}
	record(response.status, faultLabel);
	sendResponse(res, dated(response));
}

const pause = async (ms: number) => {
	if (ms > 0) await new Promise((r) => setTimeout(r, ms));
};

/**
 * Whose rate-limit bucket a request uses: the client of its bearer token, or for the token exchange the
 * client_id it sends. Undefined (not limited) for requests without a valid token: they get their 401.
 */
function clientOf(sandbox: Sandbox, method: string, path: string, req: IncomingMessage, body: ParsedBody): string | undefined {
	if (method === 'POST' && path === CREDENTIAL_EXCHANGE_PATH) {
		const clientId = body.kind === 'json' ? (body.value as { client_id?: unknown } | null)?.client_id : undefined;
		return typeof clientId === 'string' && clientId !== '' ? clientId : undefined;
	}
	return sandbox.tokens.clientOf(req.headers.authorization, sandbox.clock.nowMs());
}

async function dispatch<Auth>(
	router: Router<Auth>,
	req: IncomingMessage,
	url: URL,
	body: ParsedBody,
	authenticate: (requiresAuth: boolean) => Auth,
): Promise<ApiResponse> {
	const method = req.method ?? 'GET';
	try {
		const match = router.match(method, url.pathname);
		const ctx: RouteContext<Auth> = {
			method,
			path: url.pathname,
			params: match.params,
			query: queryObject(url),
			body,
			headers: req.headers,
			auth: authenticate(match.requiresAuth),
		};
		return await match.handler(ctx);
	} catch (error) {
		if (error instanceof HttpError) return error.toResponse();
		// A bug in the sandbox itself: answer it visibly instead of crashing the server.
		console.error(error);
		return { status: 500, body: { error: `Sandbox bug: ${(error as Error).message}` } };
	}
}

/** The request log keeps bodies for assertions, but never the client secret. */
function logBody(body: ParsedBody): unknown {
	if (body.kind === 'empty') return null;
	if (body.kind === 'invalid') return body.raw;
	const value = body.value;
	if (typeof value === 'object' && value !== null && 'client_secret' in value) {
		return { ...value, client_secret: '[redacted]' };
	}
	return value;
}
