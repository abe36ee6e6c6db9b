// The house's walls (docs/design.md, Shape): what both nodes use lives in nodes/shared/, so no file of one node's
// folder imports from another node's; and the action node's shared/ serves its resources, never the other way round.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const nodesDir = resolve(__dirname, '..', '..', 'nodes');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Every relative import of every file under nodes/, as [importing file, imported path], both relative to nodes/. */
const imports = sourceFiles(nodesDir).flatMap((file) =>
	[...readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map(
		([, spec]) => [relative(nodesDir, file), relative(nodesDir, resolve(dirname(file), spec))] as const,
	),
);

const topFolder = (path: string) => path.split(sep)[0];

it('no file of one node imports from another node (shared code lives in nodes/shared/)', () => {
	const crossing = imports.filter(([from, to]) => topFolder(from) !== 'shared' && topFolder(to) !== 'shared' && topFolder(from) !== topFolder(to));
	expect(crossing).toEqual([]);
});

it("the action node's shared/ never imports from its resources/", () => {
	const upward = imports.filter(([from, to]) => from.startsWith(`ConsignmentVendor${sep}shared${sep}`) && to.startsWith(`ConsignmentVendor${sep}resources${sep}`));
	expect(upward).toEqual([]);
});
