// A stand-in for the service's shipping-label host: serves a small PDF at /labels/<name>.pdf on 127.0.0.1,
// 404 for anything else, optionally after a delay. Records every request (to prove no credential is sent).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export const LABEL_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

export interface LabelServer {
	url: string;
	requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
	delayMs: number;
	close(): Promise<void>;
}

export async function startLabelServer(): Promise<LabelServer> {
	const requests: LabelServer['requests'] = [];
	const state = { delayMs: 0 };
	const server = createServer((req, res) => {
		requests.push({ path: req.url ?? '', headers: req.headers });
		setTimeout(() => {
			if (/^\/labels\/[\w.-]+\.pdf$/.test(req.url ?? '')) {
				res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': LABEL_PDF.length });
				res.end(LABEL_PDF);
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
