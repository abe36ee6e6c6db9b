import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { node24Env } from '../install/npm-env';
import { exec, tail } from './exec';

export const REPO_DIR = resolve(__dirname, '..', '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-consignment-vendor';

/**
 * `npm pack` of the built package, as a user would download it from npm. The caller runs `npm run build`
 * first; a missing dist/ is an error here, not something this function papers over.
 */
export async function packPackage(): Promise<string> {
	const manifest = JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { n8n?: { credentials?: string[]; nodes?: string[] } };
	const declared = [...(manifest.n8n?.credentials ?? []), ...(manifest.n8n?.nodes ?? [])];
	const missing = declared.filter((file) => !existsSync(join(REPO_DIR, file)));
	if (missing.length) {
		throw new Error(`package.json's n8n section lists files that are not built: ${missing.join(', ')} (run \`npm run build\`)`);
	}
	const destination = mkdtempSync(join(tmpdir(), 'cv-pack-'));
	const pack = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
		cwd: REPO_DIR,
		timeoutMs: 120_000,
	});
	if (pack.code !== 0) throw new Error(`npm pack failed:\n${tail(pack.stderr)}`);
	const jsonStart = pack.stdout.indexOf('[');
	const [info] = JSON.parse(pack.stdout.slice(jsonStart)) as Array<{ filename: string }>;
	return join(destination, info.filename);
}

/**
 * Installs a packed tarball into n8n's community-nodes folder the way n8n's own package installer does:
 * unpack into `<userFolder>/.n8n/nodes/node_modules/<name>`, drop dev/peer/optional dependencies (n8n
 * provides n8n-workflow itself), install the remaining runtime dependencies shallowly without scripts,
 * and list the package in `<userFolder>/.n8n/nodes/package.json`. No symlink into the source tree.
 */
export async function installPackedPackage(tarball: string, userFolder: string, nodeDir: string): Promise<string> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const packageDir = join(nodesDir, 'node_modules', PACKAGE_NAME);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	const untar = await exec('tar', ['xzf', tarball, '--strip-components=1', '-C', packageDir]);
	if (untar.code !== 0) throw new Error(`unpacking ${tarball} failed:\n${tail(untar.stderr)}`);

	const manifestPath = join(packageDir, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
	delete manifest.devDependencies;
	delete manifest.peerDependencies;
	delete manifest.optionalDependencies;
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));

	const install = await exec(
		'npm',
		['install', '--install-strategy=shallow', '--ignore-scripts', '--omit=dev', '--no-package-lock', '--no-audit', '--no-fund'],
		{ cwd: packageDir, env: node24Env(nodeDir), timeoutMs: 300_000 },
	);
	if (install.code !== 0) throw new Error(`npm install inside the unpacked package failed:\n${tail(install.stderr)}`);

	const registryPath = join(nodesDir, 'package.json');
	const registry = existsSync(registryPath)
		? (JSON.parse(readFileSync(registryPath, 'utf8')) as { dependencies?: Record<string, string> })
		: { name: 'installed-nodes', private: true, dependencies: {} };
	registry.dependencies = { ...registry.dependencies, [PACKAGE_NAME]: String(manifest.version) };
	writeFileSync(registryPath, JSON.stringify(registry, null, 2));
	return packageDir;
}
