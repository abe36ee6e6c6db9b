import { freemem } from 'node:os';

import { ensureN8n, type InstalledN8n } from './n8n';
import { ensureNode24 } from './node24';
import type { N8nRelease } from './versions';

export type { InstalledN8n } from './n8n';
export { N8N_RELEASES, selectedReleases, type N8nRelease } from './versions';

/**
 * Makes sure Node 24 and every given n8n release are installed, reusing verified cached installs.
 * Cold installs run concurrently when the machine has the memory (~4 GB peak each), else one by one.
 */
export async function ensureInstalled(
	releases: N8nRelease[],
	log: (m: string) => void = (m) => console.log(`[install] ${m}`),
): Promise<InstalledN8n[]> {
	const node = await ensureNode24(log);
	log(`Node 24 ${node.reused ? 'cached' : 'installed'} at ${node.dir} (${(node.ms / 1000).toFixed(1)} s)`);
	const report = (i: InstalledN8n) => {
		log(`n8n ${i.release.version} ${i.reused ? 'cached' : 'installed'} at ${i.dir} (${(i.ms / 1000).toFixed(1)} s)`);
		return i;
	};
	const freeGb = freemem() / 2 ** 30;
	if (freeGb >= 4.5 * releases.length) {
		return Promise.all(releases.map((r) => ensureN8n(r, node.dir, log).then(report)));
	}
	const done: InstalledN8n[] = [];
	for (const r of releases) done.push(report(await ensureN8n(r, node.dir, log)));
	return done;
}
