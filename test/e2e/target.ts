/**
 * The ONE place that says which vendor API the e2e suite talks to.
 *
 * By default the suite starts the repo's sandbox and targets it. Setting E2E_BASE_URL (with
 * E2E_AUTH_URL, E2E_CLIENT_ID, E2E_CLIENT_SECRET) points every workflow and the credential at any
 * server that implements docs/vendor-api.md instead; checks that need the sandbox's admin endpoints
 * (request log, clock, event injection) are then reported as skipped, with the reason.
 */
export interface ApiTarget {
	baseUrl: string;
	authUrl: string;
	clientId: string;
	clientSecret: string;
	/** Admin endpoint origin (/__sandbox/*) when the target is our sandbox; undefined for an external server. */
	sandboxUrl?: string;
	/** Why sandbox-only checks cannot run, when they cannot. */
	external?: string;
}

/** The external target from E2E_* variables, or undefined when the sandbox should be started. */
export function externalTarget(env: NodeJS.ProcessEnv = process.env): ApiTarget | undefined {
	const baseUrl = env.E2E_BASE_URL?.trim();
	if (!baseUrl) return undefined;
	const missing = ['E2E_AUTH_URL', 'E2E_CLIENT_ID', 'E2E_CLIENT_SECRET'].filter((k) => !env[k]?.trim());
	if (missing.length) {
		throw new Error(`E2E_BASE_URL is set, so ${missing.join(', ')} must be set too`);
	}
	return {
		baseUrl: baseUrl.replace(/\/+$/, ''),
		authUrl: env.E2E_AUTH_URL!.trim().replace(/\/+$/, ''),
		clientId: env.E2E_CLIENT_ID!.trim(),
		clientSecret: env.E2E_CLIENT_SECRET!,
		external: `E2E_BASE_URL points at ${baseUrl}, which has no sandbox admin endpoints`,
	};
}

/** The target when it is a sandbox we started (from its one JSON line). */
export function sandboxTarget(sandbox: {
	baseUrl: string;
	authUrl: string;
	clientId: string;
	clientSecret: string;
	url?: string;
}): ApiTarget {
	return {
		baseUrl: sandbox.baseUrl,
		authUrl: sandbox.authUrl,
		clientId: sandbox.clientId,
		clientSecret: sandbox.clientSecret,
		sandboxUrl: sandbox.url ?? sandbox.baseUrl,
	};
}
