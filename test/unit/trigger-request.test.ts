// Reading the raw body and the JSON object of a webhook request (nodes/ConsignmentVendorTrigger/delivery/request.ts),
// for the request shapes n8n can hand over: rawBody already read (n8n's parseBody ran), only readRawBody()
// available, a consumed stream (multipart), or no raw access at all.
import type { IWebhookFunctions } from 'n8n-workflow';

import { declaresJson, parseJsonObject, readRawBody } from '../../nodes/ConsignmentVendorTrigger/delivery/request';

function contextFor(request: object, headers: Record<string, string> = {}): IWebhookFunctions {
	return {
		getRequestObject: () => request,
		getHeaderData: () => headers,
	} as unknown as IWebhookFunctions;
}

describe('readRawBody', () => {
	it('uses req.rawBody when n8n already read it', async () => {
		const rawBody = Buffer.from('{"a":1}');
		expect(await readRawBody(contextFor({ rawBody }))).toBe(rawBody);
	});

	it('calls readRawBody() when the bytes were not read yet', async () => {
		const request: { rawBody?: Buffer; readRawBody: () => Promise<void> } = {
			readRawBody: async () => {
				request.rawBody = Buffer.from('{"b":2}');
			},
		};
		expect((await readRawBody(contextFor(request)))?.toString()).toBe('{"b":2}');
	});

	it('gives up (undefined) on a stream already consumed, or when reading fails', async () => {
		const consumed = { readableEnded: true, readRawBody: jest.fn() };
		expect(await readRawBody(contextFor(consumed))).toBeUndefined();
		expect(consumed.readRawBody).not.toHaveBeenCalled();
		const failing = { readRawBody: async () => Promise.reject(new Error('stream is not readable')) };
		expect(await readRawBody(contextFor(failing))).toBeUndefined();
	});
});

describe('parseJsonObject', () => {
	it('parses objects from the raw bytes, whatever n8n parsed', () => {
		expect(parseJsonObject(Buffer.from('{"x":1}'), 'text n8n kept', false)).toEqual({ ok: true, body: { x: 1 } });
	});

	it('refuses raw bytes that are not a JSON object', () => {
		for (const text of ['', 'nope', '[]', '1', '"s"', 'null', '{"x":']) {
			expect(parseJsonObject(Buffer.from(text), {}, true)).toEqual({ ok: false });
		}
	});

	it('without raw bytes, takes only an object n8n parsed from a declared JSON body', () => {
		expect(parseJsonObject(undefined, { x: 1 }, true)).toEqual({ ok: true, body: { x: 1 } });
		// multipart/urlencoded form fields are not a JSON body
		expect(parseJsonObject(undefined, { operation: 'item_purchased' }, false)).toEqual({ ok: false });
		expect(parseJsonObject(undefined, {}, true)).toEqual({ ok: false });
		expect(parseJsonObject(undefined, undefined, true)).toEqual({ ok: false });
	});
});

describe('declaresJson', () => {
	it('reads the content type without parameters, case-insensitively', () => {
		expect(declaresJson(contextFor({}, { 'content-type': 'Application/JSON; charset=utf-8' }))).toBe(true);
		expect(declaresJson(contextFor({}, { 'content-type': 'application/vnd.api+json' }))).toBe(true);
		expect(declaresJson(contextFor({}, { 'content-type': 'multipart/form-data; boundary=x' }))).toBe(false);
		expect(declaresJson(contextFor({}, {}))).toBe(false);
	});
});
