/**
 * `npx ts-node --transpile-only test/e2e/install/newest.ts`: is versions.ts still on the newest 2.x that installs?
 * Asks the registry for n8n's versions, and for each 2.x newer than the pinned one resolves its whole dependency tree
 * (`npm install --package-lock-only`: metadata only, nothing downloaded or built) with the pinned release's
 * overrides. Prints the newest 2.x, whether it installs and why not, and whether a 3.x is on npm at all (3.0 ships as
 * a Docker image only). Exit 1 when a newer 2.x resolves: then versions.ts should move to it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { exec, tail } from '../lib/exec';
import { N8N_RELEASES } from './versions';

const RESOLVE_TIMEOUT_MS = 10 * 60_000;
/** Newer 2.x releases tried, newest first: a failed resolution costs about a minute. */
const MAX_TRIED = 3;

const compare = (a: string, b: string) => {
	const [x, y] = [a, b].map((v) => v.split('.').map(Number));
	return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};
const isRelease = (v: string) => /^\d+\.\d+\.\d+$/.test(v);

async function registryVersions(): Promise<string[]> {
	const view = await exec('npm', ['view', 'n8n', 'versions', '--json'], { timeoutMs: 120_000 });
	if (view.code !== 0) throw new Error(`npm view n8n versions failed:\n${tail(view.stderr)}`);
	return (JSON.parse(view.stdout) as string[]).filter(isRelease).sort(compare);
}

/** Undefined when the tree resolves; otherwise npm's reason (the first ETARGET/E404 line, or its error's end). */
async function whyItDoesNotResolve(version: string, overrides: Record<string, string>): Promise<string | undefined> {
	const dir = mkdtempSync(join(tmpdir(), 'n8n-resolve-'));
	try {
		writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'n8n-resolve', private: true, dependencies: { n8n: version }, overrides }));
		const resolve = await exec('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: dir,
			timeoutMs: RESOLVE_TIMEOUT_MS,
		});
		if (resolve.code === 0) return undefined;
		const lines = resolve.stderr.split('\n').map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim());
		return lines.find((line) => /No matching version|404 Not Found/i.test(line)) ?? lines.find((line) => /ETARGET|E404/.test(line)) ?? tail(resolve.stderr, 3);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

async function main(): Promise<number> {
	const pinned = N8N_RELEASES.find((r) => r.major === '2')!;
	const versions = await registryVersions();
	const threes = versions.filter((v) => v.startsWith('3.'));
	const newer = versions.filter((v) => v.startsWith('2.') && compare(v, pinned.version) > 0).reverse();
	console.log(`pinned 2.x: ${pinned.version}; newest 2.x on the registry: ${newer[0] ?? pinned.version}; 3.x on npm: ${threes.at(-1) ?? 'none'}`);
	for (const version of newer.slice(0, MAX_TRIED)) {
		const reason = await whyItDoesNotResolve(version, pinned.overrides);
		if (reason === undefined) {
			console.log(`${version} installs: move test/e2e/install/versions.ts to it (and check its overrides)`);
			return 1;
		}
		console.log(`${version} does not install: ${reason}`);
	}
	console.log(`${pinned.version} stays the newest 2.x that installs`);
	return 0;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error((error as Error).message);
		process.exit(2);
	},
);
