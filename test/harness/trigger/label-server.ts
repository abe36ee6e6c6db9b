// A stand-in for the service's shipping-label host on 127.0.0.1. Routes:
// - /labels/<name>.pdf: a small PDF;
// - /big/<bytes>.pdf: that many bytes with Content-Length; /big-chunked/<bytes>.pdf: the same without it;
// - /slow-body/<name>.pdf: headers and the first bytes at once, the rest after `delayMs`;
// - /redirect?to=<url>: 302 to that URL;
// - /unavailable/<seconds>/<times>/<name>.pdf: the first <times> requests of that path get a 503 with
//   Retry-After <seconds> and a body that is never finished (only the client can close it), later ones the PDF;
// - /typed/<content type, URL-encoded>/<body: pdf|html>/<name>.pdf: 200 with that content type and body;
// - anything else: 404.
// Every answer comes after `delayMs` (except the slow body's headers). Records every request (to prove no
// credential is sent, and whether a refused URL was fetched at all) and whether its connection has closed.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const LABEL_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
/** What a label URL behind a login answers with. */
export const LOGIN_PAGE = Buffer.from('<!doctype html><html><body><form action="/login">Sign in</form></body></html>');

export interface LabelServer {
	url: string;
	requests: Array<{ path: string; headers: IncomingHttpHeaders; closed: boolean }>;
	delayMs: number;
	close(): Promise<void>;
}

function sendBytes(res: ServerResponse, size: number, withLength: boolean): void {
	res.writeHead(200, { 'content-type': 'application/pdf', ...(withLength ? { 'content-length': size } : {}) });
	const chunk = Buffer.alloc(64 * 1024, 0x25);
	let left = size;
	const writeMore = () => {
		while (left > 0) {
			const part = chunk.subarray(0, Math.min(left, chunk.length));
			left -= part.length;
			if (!res.write(part)) {
				res.once('drain', writeMore);
				return;
			}
		}
		res.end();
	};
	writeMore();
}

export async function startLabelServer(): Promise<LabelServer> {
	const requests: LabelServer['requests'] = [];
	const state = { delayMs: 0 };
	const answered = new Map<string, number>();
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://label.host');
		const request = { path: req.url ?? '', headers: req.headers, closed: false };
		requests.push(request);
		res.on('close', () => {
			request.closed = true;
		});
		res.on('error', () => undefined);
		const times = (answered.get(url.pathname) ?? 0) + 1;
		answered.set(url.pathname, times);
		const unavailable = /^\/unavailable\/(\d+)\/(\d+)\/[\w.-]+\.pdf$/.exec(url.pathname);
		if (unavailable && times <= Number(unavailable[2])) {
			res.writeHead(503, { 'content-type': 'text/html', 'retry-after': unavailable[1] });
			res.write('<html><body>Down for maintenance');
			return;
		}
		const typed = /^\/typed\/([^/]+)\/(pdf|html)\/[\w.-]+\.pdf$/.exec(url.pathname);
		if (typed) {
			const body = typed[2] === 'pdf' ? LABEL_PDF : LOGIN_PAGE;
			res.writeHead(200, { 'content-type': decodeURIComponent(typed[1]), 'content-length': body.length }).end(body);
			return;
		}
		if (/^\/slow-body\/[\w.-]+\.pdf$/.test(url.pathname)) {
			res.writeHead(200, { 'content-type': 'application/pdf' });
			res.write(LABEL_PDF.subarray(0, 8));
			setTimeout(() => res.end(LABEL_PDF.subarray(8)), state.delayMs);
			return;
		}
		setTimeout(() => {
			const big = /^\/(big|big-chunked)\/(\d+)\.pdf$/.exec(url.pathname);
			if (/^\/(labels|unavailable\/\d+\/\d+)\/[\w.-]+\.pdf$/.test(url.pathname)) {
				res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': LABEL_PDF.length });
				res.end(LABEL_PDF);
			} else if (big) {
				sendBytes(res, Number(big[2]), big[1] === 'big');
			} else if (url.pathname === '/redirect' && url.searchParams.has('to')) {
				res.writeHead(302, { location: url.searchParams.get('to') as string }).end();
			} else {
				res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
			}
		}, state.delayMs);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		get delayMs() {
			return state.delayMs;
		},
		set delayMs(value: number) {
			state.delayMs = value;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
