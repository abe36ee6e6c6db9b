// Small HTTP plumbing shared by the API and admin routers: reading bodies, answering JSON, typed errors.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A route's answer: `body` is sent as JSON, or as is when it is a Buffer (give its Content-Type in `headers`). */
export interface ApiResponse {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

/** Thrown by routes and helpers; the server turns it into the response as is (`toResponse`). */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: Record<string, unknown>,
		/** Sent instead of `body`, as text/plain: a refusal in a form other services may use (paging settings). */
		readonly plainText?: string,
	) {
		super(plainText ?? (typeof body.error === 'string' ? body.error : String(body.message ?? status)));
	}

	toResponse(): ApiResponse {
		if (this.plainText === undefined) return { status: this.status, body: this.body };
		return { status: this.status, body: Buffer.from(this.plainText, 'utf8'), headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
	}
}

/** `{error}` is the contract's error body for everything except authentication (`{message}`). */
export const fail = (status: number, error: string): HttpError => new HttpError(status, { error });
export const unauthorized = (message: string): HttpError => new HttpError(401, { message });

export const ok = (body: unknown, status = 200): ApiResponse => ({ status, body });

export function readRawBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

export type ParsedBody = { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; raw: string };

/** Bodies must be JSON (the contract says so); anything else is reported to the route as `invalid`. */
export function parseBody(raw: string, contentType: string | undefined): ParsedBody {
	if (raw.trim() === '') return { kind: 'empty' };
	if (!contentType || !/^application\/(.+\+)?json\b/i.test(contentType)) return { kind: 'invalid', raw };
	try {
		return { kind: 'json', value: JSON.parse(raw) };
	} catch {
		return { kind: 'invalid', raw };
	}
}

export function sendResponse(res: ServerResponse, response: ApiResponse): void {
	if (Buffer.isBuffer(response.body)) {
		res.writeHead(response.status, { 'Content-Length': response.body.length, ...response.headers });
		res.end(response.body);
		return;
	}
	const payload = response.body === undefined ? '' : JSON.stringify(response.body);
	res.writeHead(response.status, {
		...(payload ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
		'Content-Length': Buffer.byteLength(payload),
		...response.headers,
	});
	res.end(payload);
}

export function queryObject(url: URL): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of url.searchParams) out[k] = v;
	return out;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON object a route expects as its body. A missing body counts as `{}` only when `allowEmpty`;
 * non-JSON or a non-object answers 400 with `{[key]: message}` (`error`, or `message` for the token endpoint).
 */
export function jsonObjectBody(
	body: ParsedBody,
	options: { allowEmpty?: boolean; key?: 'error' | 'message' } = {},
): Record<string, unknown> {
	const key = options.key ?? 'error';
	const reject = (msg: string) => new HttpError(400, { [key]: msg });
	if (body.kind === 'empty') {
		if (options.allowEmpty) return {};
		throw reject('Request body is required (JSON object)');
	}
	if (body.kind === 'invalid') throw reject('Request body must be JSON with Content-Type: application/json');
	if (!isPlainObject(body.value)) throw reject('Request body must be a JSON object');
	return body.value;
}
