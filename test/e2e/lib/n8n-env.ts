import { node24Env } from '../install/npm-env';

/** Fixed so credentials imported in one n8n process can be decrypted by the next one using the same folder. */
export const E2E_ENCRYPTION_KEY = 'e2e-consignment-vendor-not-a-secret-0123456789';

export interface N8nEnvOptions {
	nodeDir: string;
	/** N8N_USER_FOLDER: n8n keeps its database, settings and community packages in `<it>/.n8n`. */
	userFolder: string;
	/** HTTP port of `n8n start` (also set for CLI commands so two processes never clash). */
	port: number;
	/** Task-runner broker port: n8n 2.x always opens one (default 5679), so every process needs its own. */
	brokerPort: number;
	extra?: NodeJS.ProcessEnv;
}

/** Environment for any n8n process (CLI or server) of the suite: isolated, quiet, offline-friendly. */
export function n8nEnv(options: N8nEnvOptions): NodeJS.ProcessEnv {
	const origin = `http://127.0.0.1:${options.port}`;
	return node24Env(options.nodeDir, {
		N8N_USER_FOLDER: options.userFolder,
		N8N_ENCRYPTION_KEY: E2E_ENCRYPTION_KEY,
		N8N_PORT: String(options.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		// The production webhook URL n8n registers with the vendor: the sandbox on 127.0.0.1 must reach it.
		WEBHOOK_URL: `${origin}/`,
		N8N_EDITOR_BASE_URL: `${origin}/`,
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		// Community packages are loaded from the folder we fill; n8n must not try to reinstall them from npm.
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_LEVEL: 'info',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		DB_SQLITE_POOL_SIZE: '2',
		...options.extra,
	});
}
