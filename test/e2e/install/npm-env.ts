import { join } from 'node:path';

/**
 * Environment for running npm and n8n under the installed Node 24: its bin first on PATH (npm's
 * `#!/usr/bin/env node` then runs on Node 24 too) and npm_config_nodedir at its headers, so node-gyp
 * builds n8n's native modules (sqlite3, isolated-vm) for Node 24 without downloading headers.
 *
 * npm_* variables inherited from `npm run` (e.g. this repo's ignore-scripts=true) are dropped: they
 * describe this repo's npm session, not the one for an install elsewhere.
 */
export function node24Env(nodeDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^npm_/i.test(key) && !/^npm_config_(registry|cache|userconfig|https?_proxy|proxy|noproxy|strict_ssl|cafile)$/i.test(key)) continue;
		env[key] = value;
	}
	env.PATH = `${join(nodeDir, 'bin')}:${process.env.PATH ?? ''}`;
	env.npm_config_nodedir = nodeDir;
	env.npm_config_update_notifier = 'false';
	env.npm_config_fund = 'false';
	env.npm_config_audit = 'false';
	return { ...env, ...extra };
}

export function nodeBinary(nodeDir: string): string {
	return join(nodeDir, 'bin', 'node');
}
