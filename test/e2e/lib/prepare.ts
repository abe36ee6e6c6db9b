import { ensureInstalled, type InstalledN8n, type N8nRelease } from '../install';
import { exec, tail } from './exec';
import { packPackage, REPO_DIR } from './package-loader';

/**
 * What a one-version run needs before it starts n8n: `npm run build` (unless E2E_SKIP_BUILD=1: dist/ is fresh), the
 * release installed (or verified in the cache), and the package packed. Throws saying which step failed.
 */
export async function buildInstallAndPack(release: N8nRelease, log: (m: string) => void): Promise<{ install: InstalledN8n; tarball: string }> {
	if (process.env.E2E_SKIP_BUILD !== '1') {
		log('npm run build');
		const build = await exec('npm', ['run', 'build'], { cwd: REPO_DIR, timeoutMs: 600_000 });
		if (build.code !== 0) throw new Error(`npm run build failed:\n${tail(build.stdout + build.stderr)}`);
	}
	const [install] = await ensureInstalled([release], log);
	return { install, tarball: await packPackage() };
}
