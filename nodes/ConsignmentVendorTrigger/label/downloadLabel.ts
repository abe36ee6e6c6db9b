/**
 * Optional download of an `item_purchased` event's shipping label (`pdf_url`) as binary data.
 *
 * The label URL is fetched WITHOUT the API credential: it comes from the payload and may point
 * anywhere, and the vendor's bearer token must never be sent to a host we do not know. Which URLs may be
 * fetched at all is labelPolicy.ts's decision, made again for every redirect. The body is read up to a size
 * limit and the whole download (redirects and repeats after a 429/5xx included) has one deadline. Only a PDF is
 * kept: a label host that answers with something else (a login or error page with status 200) is reported.
 */
import type { IBinaryData, IWebhookFunctions } from 'n8n-workflow';

import { readHttpFailure } from '../../shared/httpFailure';
import { httpUrl } from '../../shared/httpUrl';
import { isTimeout } from '../../shared/retryMessages';
import { describeSsrfRefusal, ssrfRefusalOf } from '../../shared/ssrfRefusal';
import { discardBody, unqueuedRequest } from '../../shared/transport';
import { labelRefusal, type LabelPolicy } from './labelPolicy';

export const DEFAULT_LABEL_TIMEOUT_SECONDS = 15;
export const DEFAULT_LABEL_MAX_MB = 20;
const MAX_REDIRECTS = 3;

interface LabelSettings extends LabelPolicy {
	maxBytes: number;
	timeoutMs: number;
}

type LabelResult = { binary: IBinaryData } | { error: string };

function fileNameOf(url: URL, fallback: string): string {
	let last = '';
	try {
		last = decodeURIComponent(url.pathname.split('/').pop() ?? '').trim();
	} catch {
		last = '';
	}
	return last !== '' ? last : fallback;
}

function headerValue(headers: unknown, name: string): string | undefined {
	if (typeof headers !== 'object' || headers === null) return undefined;
	const value = (headers as Record<string, unknown>)[name];
	return typeof value === 'string' && value !== '' ? value : undefined;
}

interface LabelResponse {
	statusCode: number;
	headers: unknown;
	body: unknown;
}

/**
 * The one request of a label download (one hop): n8n's httpRequest, no credential, no automatic redirects
 * (each hop is judged first), any status answered, the body as a stream so its size can be capped.
 */
async function requestLabel(context: IWebhookFunctions, url: URL, signal: AbortSignal, deadlineAt: number): Promise<LabelResponse> {
	// The package's transport, outside the API queue (another host): a 429/5xx tried again within the deadline.
	return (await unqueuedRequest(
		async (options) => await context.helpers.httpRequest(options),
		{ method: 'GET', url: url.toString(), encoding: 'stream', disableFollowRedirect: true, abortSignal: signal },
		{ timeoutMs: deadlineAt - Date.now(), deadlineAt },
	)) as LabelResponse;
}

class TooLarge extends Error {}

const PDF_TYPE = 'application/pdf';
/** Types a server gives a file it knows nothing about: kept only when the bytes say PDF. */
const UNSPECIFIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/x-download', 'application/force-download']);

/** A PDF starts with `%PDF-`; readers accept it anywhere in the first 1,024 bytes. */
function looksLikePdf(data: Buffer): boolean {
	return data.subarray(0, 1024).includes('%PDF-');
}

function notPdfError(status: number, contentType: string): LabelResult {
	const what = contentType === '' ? 'no content type' : `content type ${contentType}`;
	return {
		error: `The label was not saved: the label host answered HTTP ${status} with ${what}, which is not a PDF (a login or error page, or the wrong URL)`,
	};
}

/** The body's bytes, refusing more than `maxBytes` as soon as they arrive. */
async function readCapped(body: unknown, maxBytes: number): Promise<Buffer> {
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	if (typeof body === 'string') return Buffer.from(body);
	if (body === null || body === undefined) return Buffer.alloc(0);
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body as AsyncIterable<Buffer | string>) {
		const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
		size += bytes.length;
		if (size > maxBytes) {
			discardBody(body);
			throw new TooLarge();
		}
		chunks.push(bytes);
	}
	return Buffer.concat(chunks);
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1_048_576) * 100) / 100} MB`;

/** Never throws: a label that cannot be had becomes `{error}` so the event itself is not lost. */
export async function downloadLabel(
	context: IWebhookFunctions,
	pdfUrl: unknown,
	fallbackFileName: string,
	settings: LabelSettings,
): Promise<LabelResult> {
	let url = httpUrl(pdfUrl);
	if (url === undefined) {
		return { error: 'pdf_url is not an absolute http(s) URL, so the label was not downloaded' };
	}
	const deadline = AbortSignal.timeout(settings.timeoutMs);
	const deadlineAt = Date.now() + settings.timeoutMs;
	// Aborted when the download ends: an answer not read to its end (an error page, a redirect, a refused type)
	// then closes its connection at once. Destroying the stream alone does not: n8n's axios hands out a wrapper
	// that, unread, never closes the response under it.
	const done = new AbortController();
	const signal = AbortSignal.any([deadline, done.signal]);
	try {
		for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
			const refusal = labelRefusal(url, settings);
			if (refusal !== undefined) {
				return { error: `The label was not downloaded: ${hop === 0 ? '' : `it redirected to ${url.toString()}; `}${refusal}` };
			}
			const response = await requestLabel(context, url, signal, deadlineAt);
			const location = headerValue(response.headers, 'location');
			if (response.statusCode >= 300 && response.statusCode < 400 && location !== undefined) {
				discardBody(response.body);
				url = new URL(location, url);
				continue;
			}
			if (response.statusCode < 200 || response.statusCode >= 300) {
				discardBody(response.body);
				return { error: `The label could not be downloaded: HTTP ${response.statusCode}` };
			}
			const contentType = headerValue(response.headers, 'content-type')?.split(';')[0].trim().toLowerCase() ?? '';
			if (contentType !== PDF_TYPE && !UNSPECIFIC_TYPES.has(contentType)) {
				discardBody(response.body);
				return notPdfError(response.statusCode, contentType);
			}
			const declared = Number(headerValue(response.headers, 'content-length'));
			if (Number.isFinite(declared) && declared > settings.maxBytes) {
				discardBody(response.body);
				throw new TooLarge();
			}
			const data = await readCapped(response.body, settings.maxBytes);
			if (data.length === 0) return { error: 'The label download returned an empty body' };
			if (contentType !== PDF_TYPE && !looksLikePdf(data)) return notPdfError(response.statusCode, contentType);
			const binary = await context.helpers.prepareBinaryData(data, fileNameOf(url, fallbackFileName), PDF_TYPE);
			return { binary };
		}
		return { error: `The label could not be downloaded: more than ${MAX_REDIRECTS} redirects` };
	} catch (error) {
		if (error instanceof TooLarge) {
			return { error: `The label was not downloaded: it is larger than the limit of ${megabytes(settings.maxBytes)}` };
		}
		// The HTTP client's own timeout is set to the time left, so it and the deadline end together: whichever fires
		// first, the user is told the same thing.
		if (deadline.aborted || isTimeout(readHttpFailure(error))) {
			return {
				error: `The label could not be downloaded: no complete answer within ${settings.timeoutMs / 1000} s (timed out; the trigger's Label Download Timeout option)`,
			};
		}
		return { error: `The label could not be downloaded: ${describeFailure(error)}` };
	} finally {
		done.abort();
	}
}

function describeFailure(error: unknown): string {
	const refusal = ssrfRefusalOf(error);
	if (refusal !== undefined) {
		const { message, description } = describeSsrfRefusal(refusal, 'the label host');
		return `${message}. ${description}`;
	}
	if (typeof error !== 'object' || error === null) return 'unknown error';
	const e = error as { httpCode?: unknown; response?: { status?: unknown }; code?: unknown; message?: unknown };
	const status = e.response?.status ?? e.httpCode;
	if (status !== undefined && status !== null && status !== '') return `HTTP ${String(status)}`;
	if (typeof e.code === 'string') return e.code;
	return typeof e.message === 'string' ? e.message : 'unknown error';
}
