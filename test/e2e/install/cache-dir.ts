import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where real n8n and Node 24 are installed: outside the repo so a fresh clone, `git clean` or a
 * second checkout reuses them. E2E_CACHE_DIR overrides (CI can point it at a cached volume).
 */
export function cacheDir(): string {
	const dir =
		process.env.E2E_CACHE_DIR ??
		join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'n8n-nodes-consignment-vendor');
	mkdirSync(dir, { recursive: true });
	return dir;
}
