/**
 * `npm run test:e2e`: the package, built and packed, in real n8n 1.x and 2.x (see test/e2e/README.md).
 *
 * Env: E2E_N8N_VERSIONS ("1", "2", "1,2"), E2E_RESULTS_FILE (default .e2e-work/results.json),
 * E2E_CACHE_DIR (n8n installs), E2E_SKIP_BUILD=1 (dist/ is already fresh), E2E_BASE_URL/E2E_AUTH_URL/
 * E2E_CLIENT_ID/E2E_CLIENT_SECRET (an external API instead of the sandbox), E2E_ONLY (substring filter on
 * check names), E2E_SIDE_BY_SIDE=1 (each version's Item Trigger checks in n8n instances of their own, all at once,
 * beside the versions' other checks: suite/shards.ts; CI runs it so).
 */
import { join } from 'node:path';

import { ALL_CHECKS } from './checks';
import { ensureInstalled, selectedReleases, type InstalledN8n } from './install';
import { exec, tail } from './lib/exec';
import { packPackage, REPO_DIR } from './lib/package-loader';
import { formatReport, formatResult, writeResults, type CheckResult } from './lib/report';
import { shardsOf } from './suite/shards';
import { runVersion } from './suite/version-run';

const log = (m: string) => console.log(`[e2e] ${m}`);

async function main(): Promise<number> {
	const releases = selectedReleases();
	const resultsFile = process.env.E2E_RESULTS_FILE ?? join(REPO_DIR, '.e2e-work', 'results.json');
	const only = process.env.E2E_ONLY;
	const checks = only ? ALL_CHECKS.filter((c) => c.name.includes(only)) : ALL_CHECKS;
	const results: CheckResult[] = [];
	const versionTimes: Record<string, number> = {};
	const failSetup = (name: string, detail: string) => {
		for (const r of releases) results.push({ version: r.version, name, ok: false, detail, ms: 0 });
	};
	const finish = () => {
		const summary = writeResults(resultsFile, results);
		console.log(`\n${formatReport(results, versionTimes)}`);
		console.log(`\ne2e: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped (results: ${resultsFile})`);
		return summary.failed > 0 || results.length === 0 ? 1 : 0;
	};

	const started = Date.now();
	if (process.env.E2E_SKIP_BUILD !== '1') {
		log('npm run build');
		const build = await exec('npm', ['run', 'build'], { cwd: REPO_DIR, timeoutMs: 600_000 });
		if (build.code !== 0) {
			failSetup('setup: npm run build', tail(build.stdout + build.stderr));
			return finish();
		}
		log(`built in ${(build.ms / 1000).toFixed(1)} s`);
	}

	let installs: InstalledN8n[];
	try {
		installs = await ensureInstalled(releases, (m) => log(m));
	} catch (error) {
		failSetup('setup: install real n8n', (error as Error).message);
		return finish();
	}

	let tarball: string;
	try {
		tarball = await packPackage();
		log(`packed ${tarball}`);
	} catch (error) {
		failSetup('setup: npm pack', (error as Error).message);
		return finish();
	}
	log(`setup done in ${((Date.now() - started) / 1000).toFixed(1)} s`);

	if (process.env.E2E_SIDE_BY_SIDE === '1') {
		results.push(...(await runSideBySide(installs, tarball, checks, versionTimes)));
	} else {
		for (const install of installs) {
			const version = install.release.version;
			log(`n8n ${version}`);
			const versionStarted = Date.now();
			const mine = await runVersion({ install, tarball, checks, onResult: (r) => console.log(formatResult(r)) });
			results.push(...mine);
			versionTimes[version] = Date.now() - versionStarted;
		}
	}
	log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
	return finish();
}

/**
 * The Item Trigger shards of every version at once (they mostly wait for polls), beside the versions' main runs,
 * which keep a core busy: the newest's main from the start, an older version's main once that version's shard is
 * done (~6 minutes in) rather than after the newest's main (~13 minutes in). Both mains from the very start, beside
 * CI's other steps, starved n8n 1.x until its database health check refused requests ("Database is not ready"),
 * which the suite now sends again (lib/database-not-ready.ts). Each run in its own folder with its own n8n and
 * sandbox; live lines say which run they come from; the results come back in the usual order (version, then check
 * order).
 */
async function runSideBySide(installs: InstalledN8n[], tarball: string, checks: typeof ALL_CHECKS, versionTimes: Record<string, number>): Promise<CheckResult[]> {
	const runs = installs.flatMap((install) => shardsOf(checks, install.release.version).map((shard) => ({ install, shard })));
	log(`side by side: ${runs.map(({ install, shard }) => `${install.release.version}${shard.name ? ` (${shard.name})` : ''}`).join(', ')}`);
	const started = Date.now();
	const run = async ({ install, shard }: (typeof runs)[number]) => {
		const tag = `[${install.release.version}${shard.name ? ` ${shard.name}` : ''}]`;
		const mine = await runVersion({ install, tarball, checks: shard.checks, shard: shard.name, onResult: (r) => console.log(`${tag}${formatResult(r)}`) });
		const version = install.release.version;
		versionTimes[version] = Math.max(versionTimes[version] ?? 0, Date.now() - started);
		log(`${tag} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		return mine;
	};
	const newest = installs.at(-1)?.release.version;
	/** A version's lane: the newest's main and every shard at once; an older version's main after its shards. */
	const lane = async (version: string) => {
		const mine = runs.filter((r) => r.install.release.version === version);
		const main = mine.filter((r) => !r.shard.name);
		const shards = mine.filter((r) => r.shard.name);
		if (version === newest) return (await Promise.all([...main, ...shards].map(run))).flat();
		const shardResults = (await Promise.all(shards.map(run))).flat();
		return [...shardResults, ...(await Promise.all(main.map(run))).flat()];
	};
	const done = await Promise.all(installs.map((install) => lane(install.release.version)));
	const order = (r: CheckResult) => checks.findIndex((c) => c.name === r.name);
	return installs.flatMap((install) =>
		done
			.flat()
			.filter((r) => r.version === install.release.version)
			.sort((a, b) => (a.name.startsWith('setup') ? -1 : 0) - (b.name.startsWith('setup') ? -1 : 0) || order(a) - order(b)),
	);
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
