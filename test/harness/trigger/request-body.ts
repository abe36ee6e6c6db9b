// What n8n does to the request body before it calls a webhook node's webhook() (packages/cli,
// webhook-helpers.ts parseRequestBody + middlewares/body-parser.ts parseBody, same in 1.x and 2.x):
// - node typeVersion 1 (this trigger): the body is always read into req.rawBody (except multipart/form-data,
//   which n8n hands to its form parser; not needed here, so it is refused), then parsed by content type;
// - typeVersion > 1: only JSON, text/plain, urlencoded and XML content types are read and parsed;
// - a body n8n cannot parse (e.g. `application/json` that is not JSON) is answered 422 by n8n itself and
//   the node is never called.
// XML is not parsed here (n8n would use xml2js): the trigger reads JSON from the raw bytes anyway.
import { parse as parseQueryString } from 'node:querystring';

import type { ShimRequest } from './express-shim';

export class UnprocessableBodyError extends Error {
	readonly status = 422;
	constructor(readonly hint: string) {
		super('Failed to parse request body');
	}
}

export class UnsupportedBodyError extends Error {
	readonly status = 415;
	constructor() {
		super('multipart/form-data is not supported by the trigger harness');
	}
}

function isParsableContentType(contentType: string | undefined): boolean {
	if (!contentType) return false;
	return (
		contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml')
	);
}

async function parseBody(req: ShimRequest): Promise<void> {
	await req.readRawBody();
	const { rawBody, contentType, encoding } = req;
	if (!rawBody?.length) return;
	try {
		if (contentType === 'application/json') req.body = JSON.parse(rawBody.toString(encoding));
		else if (contentType === 'application/x-www-form-urlencoded') {
			req.body = parseQueryString(rawBody.toString(encoding), undefined, undefined, { maxKeys: 1000 });
		} else if (contentType === 'text/plain') req.body = rawBody.toString(encoding);
	} catch (error) {
		throw new UnprocessableBodyError((error as Error).message);
	}
}

export async function prepareRequestBody(req: ShimRequest, nodeTypeVersion: number): Promise<void> {
	if (req.contentType === 'multipart/form-data') throw new UnsupportedBodyError();
	if (nodeTypeVersion > 1 && !isParsableContentType(req.contentType)) return;
	await parseBody(req);
}
