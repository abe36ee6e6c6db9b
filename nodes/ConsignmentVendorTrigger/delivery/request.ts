/**
 * n8n (1.x and 2.x) runs `parseBody` before calling a version-1 webhook node: `req.rawBody` holds the bytes
 * (decompressed) and `req.body` is parsed by content type. Should a future n8n skip that (it does for node
 * versions above 1), `readRawBody()` is called here. A JSON content type with a non-JSON body gets n8n's own 422.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { isJsonObject } from '../../shared/jsonObject';

interface RequestWithRawBody {
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
	readableEnded?: boolean;
}

/** The request's bytes exactly as received, or undefined where n8n offers no way to get them. */
export async function readRawBody(context: IWebhookFunctions): Promise<Buffer | undefined> {
	const request = context.getRequestObject() as unknown as RequestWithRawBody;
	// A stream something else already consumed (n8n's multipart parser) has no bytes left to read.
	if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function' && request.readableEnded !== true) {
		try {
			await request.readRawBody();
		} catch {
			return undefined;
		}
	}
	return Buffer.isBuffer(request.rawBody) ? request.rawBody : undefined;
}

/** True when the request declared a JSON body (n8n then parsed it into an object itself). */
export function declaresJson(context: IWebhookFunctions): boolean {
	const contentType = context.getHeaderData()['content-type'];
	const type = (typeof contentType === 'string' ? contentType : '').split(';')[0].trim().toLowerCase();
	return type === 'application/json' || type.endsWith('+json');
}

type ParsedBody = { ok: true; body: IDataObject } | { ok: false };

/**
 * The body as a JSON object. From the raw bytes when there are any, whatever the content type
 * claimed; otherwise from what n8n parsed, only for a declared JSON body (never form fields).
 */
export function parseJsonObject(
	rawBody: Buffer | undefined,
	parsedByN8n: unknown,
	declaredJson: boolean,
): ParsedBody {
	if (rawBody === undefined) {
		return declaredJson && isJsonObject(parsedByN8n) && Object.keys(parsedByN8n).length > 0
			? { ok: true, body: parsedByN8n }
			: { ok: false };
	}
	let value: unknown;
	try {
		value = JSON.parse(rawBody.toString('utf8'));
	} catch {
		return { ok: false };
	}
	return isJsonObject(value) ? { ok: true, body: value } : { ok: false };
}

/** n8n lower-cases header names. */
export function headerOf(context: IWebhookFunctions, name: string): string | string[] | undefined {
	return context.getHeaderData()[name.toLowerCase()];
}
