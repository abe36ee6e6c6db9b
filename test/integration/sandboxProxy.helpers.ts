// A forwarding proxy between the node and the sandbox, for tests that must act at an exact request of a run (page 3,
// batch 2): `beforeForwarding` runs with each request's method and path, before that request reaches the sandbox.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { RunningSandbox } from '../sandbox';

export interface SandboxProxy {
	url: string;
	close(): Promise<void>;
}

export async function proxyToSandbox(target: RunningSandbox, beforeForwarding: (method: string, path: string) => Promise<void>): Promise<SandboxProxy> {
	const upstream = new URL(target.baseUrl);
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				await beforeForwarding(req.method ?? 'GET', new URL(req.url ?? '/', 'http://proxy').pathname);
				const forwarded = http.request(
					{ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
					(answer) => {
						res.writeHead(answer.statusCode ?? 502, answer.headers);
						answer.pipe(res);
					},
				);
				// The sandbox dropped the connection: drop ours too, so the node sees what it would see directly.
				forwarded.on('error', () => req.socket.destroy());
				forwarded.end(Buffer.concat(chunks));
			})();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
