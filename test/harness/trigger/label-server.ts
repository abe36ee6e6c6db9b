// A stand-in for the service's shipping-label host on 127.0.0.1. Routes:
// - /labels/<name>.pdf: a small PDF;
// - /big/<bytes>.pdf: that many bytes with Content-Length; /big-chunked/<bytes>.pdf: the same without it;
// - /slow-body/<name>.pdf: headers and the first bytes at once, the rest after `delayMs`;
// - /redirect?to=<url>: 302 to that URL;
// - anything else: 404.
// Every answer comes after `delayMs` (except the slow body's headers). Records every request (to prove no
// credential is sent, and whether a refused URL was fetched at all).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const LABEL_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export interface LabelServer {
	url: string;
	requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
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
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://label.host');
		requests.push({ path: req.url ?? '', headers: req.headers });
		res.on('error', () => undefined);
		if (/^\/slow-body\/[\w.-]+\.pdf$/.test(url.pathname)) {
			res.writeHead(200, { 'content-type': 'application/pdf' });
			res.write(LABEL_PDF.subarray(0, 8));
			setTimeout(() => res.end(LABEL_PDF.subarray(8)), state.delayMs);
			return;
		}
		setTimeout(() => {
			const big = /^\/(big|big-chunked)\/(\d+)\.pdf$/.exec(url.pathname);
			if (/^\/labels\/[\w.-]+\.pdf$/.test(url.pathname)) {
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
