/**
 * `npm run test:e2e:ssrf`: the packed package in n8n 2.x's regular mode with n8n's SSRF protection on (the service's
 * host allowed by name, as an admin allows theirs) and filesystem binary storage: what is let through, and what is
 * refused with a clear error (see test/e2e/README.md, "SSRF protection").
 *
 * Env: E2E_SSRF_RESULTS_FILE (default .e2e-work/ssrf-results.json), E2E_SKIP_BUILD=1, E2E_CACHE_DIR, E2E_ONLY.
 */
import { join } from 'node:path';

import { N8N_RELEASES } from '../install';
import { REPO_DIR } from '../lib/package-loader';
import { buildInstallAndPack } from '../lib/prepare';
import { formatReport, formatResult, writeResults, type CheckResult } from '../lib/report';
import { runVersion, type RunVariant } from '../suite/version-run';
import { allowedTarget, refusedHostCredentials, SSRF_CHECKS, SSRF_ENV } from './checks';

const log = (m: string) => console.log(`[e2e:ssrf] ${m}`);

export const SSRF_VARIANT: RunVariant = {
	name: 'ssrf',
	env: SSRF_ENV,
	target: allowedTarget,
	credentials: refusedHostCredentials,
	sources: [{ dir: join(__dirname, 'workflows'), prefix: '' }],
};

async function main(): Promise<number> {
	const started = Date.now();
	const release = N8N_RELEASES.find((r) => r.major === '2')!;
	const resultsFile = process.env.E2E_SSRF_RESULTS_FILE ?? join(REPO_DIR, '.e2e-work', 'ssrf-results.json');
	const only = process.env.E2E_ONLY;
	const checks = only ? SSRF_CHECKS.filter((c) => c.name.includes(only)) : SSRF_CHECKS;
	const label = `${release.version} ${SSRF_VARIANT.name}`;
	let results: CheckResult[] = [];
	try {
		const { install, tarball } = await buildInstallAndPack(release, log);
		results = await runVersion({ install, tarball, checks, variant: SSRF_VARIANT, onResult: (r) => console.log(formatResult(r)) });
	} catch (error) {
		results.push({ version: label, name: 'ssrf setup', ok: false, detail: (error as Error).message, ms: 0 });
	}
	const summary = writeResults(resultsFile, results);
	console.log(`\n${formatReport(results, { [label]: Date.now() - started })}`);
	console.log(`\ne2e ssrf: ${summary.passed} passed, ${summary.failed} failed (results: ${resultsFile}, ${((Date.now() - started) / 1000).toFixed(0)} s)`);
	return summary.failed > 0 || results.length === 0 ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
