import type { ServerHandle } from '../checks/types';
import { N8nApi, type OwnerAccount } from '../lib/n8n-api';
import type { N8nInstance } from '../lib/n8n-cli';
import { N8nServer } from '../lib/n8n-server';

/** The suite's owner account: only ever exists in a throwaway user folder on 127.0.0.1. */
export const E2E_OWNER: OwnerAccount = {
	email: 'e2e-owner@example.com',
	password: 'E2e-owner-password-1',
	firstName: 'E2E',
	lastName: 'Owner',
};

/** Starts `n8n start`, creates the owner and an API key: what activating workflows without the UI needs. */
export async function startServerHandle(instance: N8nInstance, logFile: string): Promise<ServerHandle> {
	let server = await N8nServer.start(instance, logFile);
	const api = new N8nApi(server.url);
	try {
		await api.setupOwnerOrLogin(E2E_OWNER);
		await api.createApiKey('e2e suite');
	} catch (error) {
		await server.stop();
		throw new Error(`${(error as Error).message}\n--- n8n log (end) ---\n${server.logTail()}`);
	}
	const handle: ServerHandle = {
		server,
		api,
		async restart(whileStopped) {
			await server.stop();
			await whileStopped?.();
			server = await N8nServer.start(instance, logFile);
			handle.server = server;
			await api.login(E2E_OWNER);
		},
	};
	return handle;
}
