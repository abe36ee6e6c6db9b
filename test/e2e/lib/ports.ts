import { createServer } from 'node:net';

/**
 * A port that was free a moment ago on 127.0.0.1. n8n takes its ports from env variables, so it cannot
 * be told "any free port" like our own servers; asking the OS for one and passing it on is the next best.
 */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}
