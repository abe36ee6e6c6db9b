/**
 * Optional download of an `item_purchased` event's shipping label (`pdf_url`) as binary data.
 *
 * The label URL is fetched WITHOUT the API credential: it comes from the payload and may point
 * anywhere, and the vendor's bearer token must never be sent to a host we do not know.
 */
import type { IBinaryData, IWebhookFunctions } from 'n8n-workflow';

/** A vendor's delivery should not wait long for a label host; past this the event goes on without it. */
export const LABEL_TIMEOUT_MS = 15_000;

export type LabelResult = { binary: IBinaryData } | { error: string };

/** The URL when it is an absolute http(s) URL, otherwise undefined. */
export function absoluteHttpUrl(value: unknown): URL | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	try {
		const url = new URL(value.trim());
		return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
	} catch {
		return undefined;
	}
}

function fileNameOf(url: URL, fallback: string): string {
	const last = decodeURIComponent(url.pathname.split('/').pop() ?? '').trim();
	return last !== '' ? last : fallback;
}

function headerValue(headers: unknown, name: string): string | undefined {
	if (typeof headers !== 'object' || headers === null) return undefined;
	const value = (headers as Record<string, unknown>)[name];
	return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Never throws: a label that cannot be had becomes `{error}` so the event itself is not lost. */
export async function downloadLabel(
	context: IWebhookFunctions,
	pdfUrl: unknown,
	fallbackFileName: string,
): Promise<LabelResult> {
	const url = absoluteHttpUrl(pdfUrl);
	if (url === undefined) {
		return { error: 'pdf_url is not an absolute http(s) URL, so the label was not downloaded' };
	}
	try {
		const response = (await context.helpers.httpRequest({
			method: 'GET',
			url: url.toString(),
			encoding: 'arraybuffer',
			returnFullResponse: true,
			timeout: LABEL_TIMEOUT_MS,
		})) as { body: unknown; headers?: unknown };
		const body = response.body;
		const data = Buffer.isBuffer(body)
			? body
			: body instanceof ArrayBuffer
				? Buffer.from(body)
				: Buffer.from(String(body ?? ''));
		if (data.length === 0) return { error: 'The label download returned an empty body' };
		const mimeType = headerValue(response.headers, 'content-type')?.split(';')[0].trim() ?? 'application/pdf';
		const binary = await context.helpers.prepareBinaryData(data, fileNameOf(url, fallbackFileName), mimeType);
		return { binary };
	} catch (error) {
		return { error: `The label could not be downloaded: ${describeFailure(error)}` };
	}
}

function describeFailure(error: unknown): string {
	if (typeof error !== 'object' || error === null) return 'unknown error';
	const e = error as { httpCode?: unknown; response?: { status?: unknown }; code?: unknown; message?: unknown };
	const status = e.response?.status ?? e.httpCode;
	if (status !== undefined && status !== null && status !== '') return `HTTP ${String(status)}`;
	if (typeof e.code === 'string') return e.code;
	return typeof e.message === 'string' ? e.message : 'unknown error';
}
