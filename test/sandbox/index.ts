// Starts a sandbox in this process. Tests: `const sb = await startSandbox({ port: 0 })`, then `sb.admin.reset()`
// between tests and `sb.close()` at the end.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SandboxAdmin } from './admin-client';
import { VENDOR_CLIENT } from './auth';
import { Sandbox } from './sandbox';
import { sandboxRequestListener } from './server';

export { SandboxAdmin } from './admin-client';
export { NON_VENDOR_CLIENT, VENDOR_CLIENT } from './auth';
export type * from './types';
export type { PagingSettings, RefusalBody } from './paging-settings';

export interface SandboxOptions {
	/** 0 = any free port. Default 0. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** The origin others reach it by when that is not `http://host:port` (in a container: `http://sandbox:4010`); label URLs use it. */
	publicUrl?: string;
	/** Seed demo data (default true). Consignments exist either way: the API cannot create them. */
	seed?: boolean;
}

export interface RunningSandbox {
	/** Origin, e.g. http://127.0.0.1:43121 */
	url: string;
	/** === url; API paths are /v1/... */
	baseUrl: string;
	/** url + '/auth'; the token endpoint is `${authUrl}/api/v1/bearer-token` */
	authUrl: string;
	clientId: string;
	clientSecret: string;
	admin: SandboxAdmin;
	close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const host = options.host ?? '127.0.0.1';
	// Listen first: the sandbox needs its own origin (the label URLs in item_purchased events point at it).
	const server = createServer();
	// Node closes an idle keep-alive socket after 5 s, just as a client (fetch keeps sockets ~4 s) may send on it: on a
	// loaded machine the timers drift and the request meets "other side closed" / ECONNRESET. Idle sockets are kept
	// for a minute instead; close() ends them at once.
	server.keepAliveTimeout = 60_000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	const url = options.publicUrl?.replace(/\/+$/, '') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	const sandbox = new Sandbox(options.seed ?? true, url);
	server.on('request', sandboxRequestListener(sandbox));
	return {
		url,
		baseUrl: url,
		authUrl: `${url}/auth`,
		clientId: VENDOR_CLIENT.clientId,
		clientSecret: VENDOR_CLIENT.clientSecret,
		admin: new SandboxAdmin(url),
		close: async () => {
			// Keep-alive sockets (fetch keeps them open) would otherwise hold close() until they time out.
			server.closeAllConnections();
			await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
			await sandbox.webhooks.idle();
		},
	};
}
