import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { exec, tail } from '../lib/exec';
import { atomicInstall, type InstallOutcome } from './atomic-install';
import { cacheDir } from './cache-dir';
import { node24Env, nodeBinary } from './npm-env';
import type { N8nRelease } from './versions';

export interface InstalledN8n extends InstallOutcome {
	release: N8nRelease;
	nodeDir: string;
	/** Path of n8n's bin script; run it with the Node 24 binary. */
	n8nBin: string;
}

const INSTALL_TIMEOUT_MS = 25 * 60_000;

/** Installs (or reuses) one pinned n8n release in its own host folder in the cache directory. */
export async function ensureN8n(
	release: N8nRelease,
	nodeDir: string,
	log: (m: string) => void,
): Promise<InstalledN8n> {
	const dir = join(cacheDir(), `n8n-${release.version}`);
	const env = node24Env(nodeDir);
	const outcome = await atomicInstall({
		dir,
		identity: { n8n: release.version, overrides: release.overrides, node: nodeDir },
		log,
		async build(staging) {
			writeFileSync(
				join(staging, 'package.json'),
				JSON.stringify(
					{ name: 'n8n-host', private: true, dependencies: { n8n: release.version }, overrides: release.overrides },
					null,
					2,
				),
			);
			const logFile = join(staging, 'install.log');
			log(`installing n8n ${release.version} (log: ${logFile}, kept in the final folder)`);
			const install = await exec(
				'npm',
				['install', '--no-audit', '--no-fund', '--loglevel=warn', `--ignore-scripts=${release.ignoreScripts}`],
				{ cwd: staging, env, timeoutMs: INSTALL_TIMEOUT_MS, logFile },
			);
			if (install.code !== 0) {
				throw new Error(`npm install n8n@${release.version} failed (${install.code ?? install.signal}):\n${tail(install.stderr)}`);
			}
			if (release.rebuild.length) {
				log(`building native modules ${release.rebuild.join(', ')} for Node 24`);
				const rebuild = await exec('npm', ['rebuild', ...release.rebuild, '--ignore-scripts=false'], {
					cwd: staging,
					env,
					timeoutMs: INSTALL_TIMEOUT_MS,
					logFile,
				});
				if (rebuild.code !== 0) throw new Error(`npm rebuild failed:\n${tail(rebuild.stderr)}`);
			}
		},
		verify: (d) => verifyN8n(d, release, nodeDir),
	});
	return { ...outcome, release, nodeDir, n8nBin: join(dir, 'node_modules', 'n8n', 'bin', 'n8n') };
}

/** A cached install counts only if n8n reports the pinned version and its native database driver loads. */
async function verifyN8n(dir: string, release: N8nRelease, nodeDir: string): Promise<void> {
	const env = node24Env(nodeDir);
	const version = await exec(nodeBinary(nodeDir), [join(dir, 'node_modules', 'n8n', 'bin', 'n8n'), '--version'], {
		cwd: dir,
		env,
		timeoutMs: 120_000,
	});
	if (!version.stdout.includes(release.version)) {
		throw new Error(`n8n --version printed "${tail(version.stdout + version.stderr, 5)}", expected ${release.version}`);
	}
	const natives = await exec(
		nodeBinary(nodeDir),
		['-e', "require('sqlite3'); try { require.resolve('isolated-vm') } catch { process.exit(0) } require('isolated-vm')"],
		{ cwd: dir, env, timeoutMs: 60_000 },
	);
	if (natives.code !== 0) throw new Error(`native modules do not load:\n${tail(natives.stderr, 10)}`);
}
