// The part of express's Request/Response that n8n hands a webhook node (additionalData.httpRequest /
// httpResponse), grafted onto node:http's real IncomingMessage/ServerResponse. n8n runs express; the node only
// uses what is here: headers, body, rawBody, readRawBody(), query, params, and res.status().json()/send().
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';

import { parseIncomingMessage } from '@n8n/backend-network';

export type ShimRequest = IncomingMessage & {
	body: unknown;
	rawBody: Buffer;
	readRawBody(): Promise<void>;
	contentType?: string;
	encoding: BufferEncoding;
	query: Record<string, string>;
	params: Record<string, string>;
};

export type ShimResponse = ServerResponse & {
	status(code: number): ShimResponse;
	json(body: unknown): ShimResponse;
	send(body?: unknown): ShimResponse;
};

async function readAll(stream: Readable): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
	return Buffer.concat(chunks);
}

/**
 * As n8n's rawBodyReader middleware (packages/cli/src/middlewares/body-parser.ts): content type and
 * charset parsed with n8n's own parseIncomingMessage; `readRawBody()` reads the stream once (gunzip/inflate
 * when the request says so) into `rawBody`.
 */
export function shimRequest(req: IncomingMessage): ShimRequest {
	const request = req as ShimRequest;
	parseIncomingMessage(request);
	request.encoding ??= 'utf-8' as BufferEncoding;
	const url = new URL(req.url ?? '/', 'http://placeholder');
	request.query = Object.fromEntries(url.searchParams.entries());
	request.params = {};
	request.readRawBody = async () => {
		if (request.rawBody) return;
		let stream: Readable = request;
		const encoding = request.headers['content-encoding'];
		if (encoding === 'gzip') stream = request.pipe(createGunzip());
		else if (encoding === 'deflate') stream = request.pipe(createInflate());
		request.rawBody = await readAll(stream);
	};
	return request;
}

/** express's status/json/send, enough for `res.status(401).json({...})` and n8n's own answers. */
export function shimResponse(res: ServerResponse): ShimResponse {
	const response = res as ShimResponse;
	response.status = (code: number) => {
		response.statusCode = code;
		return response;
	};
	response.json = (body: unknown) => {
		if (!response.headersSent) response.setHeader('content-type', 'application/json; charset=utf-8');
		response.end(JSON.stringify(body));
		return response;
	};
	response.send = (body?: unknown) => {
		if (body === undefined) response.end();
		else if (typeof body === 'string' || Buffer.isBuffer(body)) response.end(body);
		else return response.json(body);
		return response;
	};
	return response;
}
