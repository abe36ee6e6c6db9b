/**
 * The load balancer n8n's queue-mode docs put in front of the processes, on one loopback port: production webhooks
 * (`/webhook/…`) to the webhook processor, everything else (test webhooks `/webhook-test/…` included: only the main
 * serves those) to the main. WEBHOOK_URL points here, so the URLs n8n gives the vendor, for production and for test
 * listening alike, are the ones a real deployment gives.
 */
import { createServer, request, type Server } from 'node:http';

export interface Router {
	url: string;
	close(): Promise<void>;
}

export async function startRouter(port: number, upstream: { main: number; webhook: number }): Promise<Router> {
	const server: Server = createServer((req, res) => {
		const target = req.url?.startsWith('/webhook/') ? upstream.webhook : upstream.main;
		const forward = request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		forward.on('error', (error) => {
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
			res.end(`router: ${target} unreachable: ${error.message}`);
		});
		req.pipe(forward);
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	return {
		url: `http://127.0.0.1:${port}`,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
