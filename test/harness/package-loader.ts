// Loads this package's nodes and credentials with n8n-core's own PackageDirectoryLoader, the class n8n uses
// for an installed community package: it reads package.json's `n8n.nodes` / `n8n.credentials`, instantiates
// each class named after its file, adds the codex, fixes icon paths, adds the declarative nodes' "requestOptions"
// parameter, validates descriptions and infers the credentials' supportedNodes. The one change: the dist/*.js
// paths from package.json are read from their TypeScript sources, so tests need no build.
import path from 'node:path';

import { PackageDirectoryLoader } from 'n8n-core';

import { prepareN8nRuntime } from './n8n-runtime';

export const PACKAGE_ROOT = path.resolve(__dirname, '../..');

/** `dist/nodes/X/X.node.js` -> `nodes/X/X.node.ts`; other dist files (codex JSON, icons) -> their source. */
export function sourcePathOf(distPath: string): string {
	const withoutDist = distPath.replace(/^(\.\/)?dist\//, '');
	return withoutDist.endsWith('.js') ? `${withoutDist.slice(0, -'.js'.length)}.ts` : withoutDist;
}

class PackageSourceLoader extends PackageDirectoryLoader {
	/** Files that failed to load: a teammate's half-written node must not stop every other test. */
	readonly problems: string[] = [];

	protected resolvePath(file: string): string {
		return super.resolvePath(sourcePathOf(file));
	}

	loadNodeFromFile(filePath: string, packageVersion?: string): void {
		try {
			super.loadNodeFromFile(filePath, packageVersion);
		} catch (error) {
			this.problems.push(`${sourcePathOf(filePath)}: ${(error as Error).message}`);
		}
	}

	loadCredentialFromFile(filePath: string): void {
		try {
			super.loadCredentialFromFile(filePath);
		} catch (error) {
			this.problems.push(`${sourcePathOf(filePath)}: ${(error as Error).message}`);
		}
	}
}

let loaded: Promise<PackageSourceLoader> | undefined;

/** The package, loaded once per test process (n8n also loads a package once). */
export async function loadPackage(): Promise<PackageSourceLoader> {
	prepareN8nRuntime();
	loaded ??= (async () => {
		const loader = new PackageSourceLoader(PACKAGE_ROOT);
		await loader.loadAll();
		return loader;
	})();
	return await loaded;
}
