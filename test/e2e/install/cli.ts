/**
 * `npx ts-node --transpile-only test/e2e/install/cli.ts [1|2|<version>...]`: installs (or verifies the
 * cached) real n8n releases without running the suite, e.g. to warm a CI cache.
 */
import { ensureInstalled, selectedReleases } from './index';

const started = Date.now();
ensureInstalled(selectedReleases(process.argv.slice(2).join(',') || undefined))
	.then((installs) => {
		for (const i of installs) console.log(`${i.release.version}: ${i.n8nBin}`);
		console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	})
	.catch((error: Error) => {
		console.error(`install failed: ${error.message}`);
		process.exit(1);
	});
