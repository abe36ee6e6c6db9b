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

// Issue 37: the Item wing composes at the top. The operation file wires the pieces together and passes them down;
// what lies under it is a leaf or depends only on leaves, so a SKU's walk from the input row to its request never
// climbs back up, and a reader finds each piece at most four files below the resource's index.
describe('the Item wing is shallow and never climbs back up', () => {
	const itemDir = join(nodesDir, 'ConsignmentVendor', 'resources', 'item');
	const itemFiles = new Set(sourceFiles(itemDir));

	/** The files a file needs at run time: every import and re-export but `import type` / `export type` ones. */
	const valueImportsOf = (file: string): string[] =>
		[...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gms)]
			.map(([, spec]) => resolve(dirname(file), spec))
			.flatMap((target) => [`${target}.ts`, join(target, 'index.ts')].filter((candidate) => itemFiles.has(candidate)).slice(0, 1));

	/** The longest chain of value imports that starts at `file` and stays inside item/, as files from `file` down. */
	const longest = new Map<string, string[]>();
	function longestChainFrom(file: string, climbing: string[] = []): string[] {
		const known = longest.get(file);
		if (known) return known;
		if (climbing.includes(file)) return []; // a cycle: the compiler would say so; the chain ends here
		const below = valueImportsOf(file)
			.map((next) => longestChainFrom(next, [...climbing, file]))
			.reduce((best, chain) => (chain.length > best.length ? chain : best), [] as string[]);
		const chain = [file, ...below];
		longest.set(file, chain);
		return chain;
	}

	it('no chain of value imports under resources/item/ is longer than 4 files', () => {
		const tooDeep = [...itemFiles]
			.map((file) => longestChainFrom(file))
			.filter((chain) => chain.length > 4)
			.map((chain) => chain.map((file) => relative(itemDir, file)).join(' -> '));
		expect(tooDeep).toEqual([]);
	});

	it('no module under item/helpers/ or item/upsert/ imports an operation file (or the index) of item/', () => {
		const operationFiles = new Set([...itemFiles].filter((file) => dirname(file) === itemDir));
		const climbing = imports
			.filter(([from]) => /^ConsignmentVendor[\\/]resources[\\/]item[\\/](helpers|upsert)[\\/]/.test(from))
			.filter(([, to]) => operationFiles.has(join(nodesDir, `${to}.ts`)) || operationFiles.has(join(nodesDir, to, 'index.ts')));
		expect(climbing).toEqual([]);
	});
});
