// Adding an operation is its file, one line in its resource's list, a test and a README row (docs/development.md,
// "Adding an operation"): this holds each of them, so a forgotten one fails here rather than at run time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ConsignmentVendor, RESOURCES } from '../../nodes/ConsignmentVendor/ConsignmentVendor.node';
import { nodeDescriptionOf } from '../../nodes/ConsignmentVendor/shared/resource';
import { OPERATIONS } from './registry';
import { TOOL_DESCRIPTION_CASES } from './tool-description-cases';

const root = join(__dirname, '..', '..');
const resourcesDir = join(root, 'nodes', 'ConsignmentVendor', 'resources');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const checksDir = join(root, 'test', 'e2e', 'checks');

/** The check files that run: test/e2e/checks/index.ts (ALL_CHECKS) and every file it imports, followed within checks/. */
function runningCheckTexts(): string[] {
	const seen = new Map<string, string>();
	const visit = (file: string) => {
		if (seen.has(file)) return;
		const text = readFileSync(join(checksDir, `${file}.ts`), 'utf8');
		// A name in expectSuccess(outcome, 'name') or exampleNode('name', …) labels a message or reads the file: it runs nothing.
		seen.set(file, text.replace(/(expectSuccess\(\w+, |exampleNode\()(['"`])[^'"`]*\2/g, '$1label'));
		for (const [, imported] of text.matchAll(/from '\.\/([\w-]+)'/g)) visit(imported);
	};
	visit('index');
	return [...seen.values()];
}
const checkTexts = runningCheckTexts();

/**
 * A workflow runs in real n8n only if a check names it (`workflow: 'name'`, `ctx.execute('name')`,
 * `ctx.workflowId('name')`, an example as `${EXAMPLE_PREFIX}name` or a constant): a file nobody names is imported
 * into n8n and never executed, so its text alone proves nothing.
 */
const namedByACheck = (name: string) => {
	const literal = new RegExp(`['"\`}]${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`);
	return checkTexts.some((text) => literal.test(text));
};
const workflowsRun = ['test/e2e/workflows', 'examples'].flatMap((dir) =>
	readdirSync(join(root, dir))
		.filter((file) => file.endsWith('.json') && namedByACheck(file.replace(/\.json$/, '')))
		.map((file) => ({ file: `${dir}/${file}`, text: readFileSync(join(root, dir, file), 'utf8') })),
);

/**
 * The resource a folder holds, as its index.ts names it: a folder may be named otherwise (resources/vendorProfile/ holds
 * `vendor`, as tools skip folders called vendor/).
 */
const resourceOfFolder = (folder: string) => /defineResource\(\s*\{\s*name: '(\w+)'/.exec(readFileSync(join(resourcesDir, folder, 'index.ts'), 'utf8'))?.[1] ?? folder;

/** Every operation file: resources/<folder>/<operation>.ts (index.ts and helpers/ are not operations). */
const operationFiles = readdirSync(resourcesDir).flatMap((folder) =>
	readdirSync(join(resourcesDir, folder))
		.filter((file) => file.endsWith('.ts') && file !== 'index.ts')
		.map((file) => [resourceOfFolder(folder), file.replace(/\.ts$/, '')] as const),
);

/** Whether a workflow has an action node set to this operation (n8n leaves defaults out of the saved parameters). */
function usesOperation(text: string, resource: string, operation: string): boolean {
	const workflow = JSON.parse(text) as { nodes: Array<{ type: string; parameters?: Record<string, unknown> }> };
	const defaults = (name: string) => RESOURCES.find((candidate) => candidate.name === name)?.selector.default;
	return workflow.nodes.some(({ type, parameters = {} }) => {
		if (!type.endsWith('.consignmentVendor')) return false;
		const nodeResource = (parameters.resource as string | undefined) ?? 'item';
		return nodeResource === resource && ((parameters.operation as string | undefined) ?? defaults(nodeResource)) === operation;
	});
}

const registered = RESOURCES.flatMap((resource) =>
	(resource.selector.options as Array<{ name: string; value: string }>).map((option) => ({ resource, option })),
);

describe('every operation is registered, tested and documented', () => {
	it('each operation file is in its resource list, and each listed operation runs', () => {
		const listed = registered.map(({ resource, option }) => `${resource.name}/${option.value}`).sort();
		expect(operationFiles.map(([resource, operation]) => `${resource}/${operation}`).sort()).toEqual(listed);
		for (const { resource, option } of registered) expect([option.value, typeof resource.executors.get(option.value)]).toEqual([option.value, 'function']);
	});

	it.each(registered.map(({ resource, option }) => [resource.displayName, option.name, resource.name, option.value]))(
		'%s → %s: a README row, a workflow an e2e check runs in real n8n, and a tool description check',
		(resourceName, operationName, resource, operation) => {
			expect(readme).toContain(`| ${resourceName} | ${operationName} |`);
			const runsInN8n = workflowsRun.filter(({ text }) => usesOperation(text, resource, operation)).map(({ file }) => file);
			expect([resource, operation, runsInN8n.length > 0]).toEqual([resource, operation, true]);
			expect(TOOL_DESCRIPTION_CASES.map(([r, o]) => `${r}/${o}`)).toContain(`${resource}/${operation}`);
		},
	);

	it.each(OPERATIONS.map(({ resource, option, operation, listing }) => [`${resource.displayName} → ${option.name}`, resource, operation, listing !== undefined]))(
		'%s: a list operation (listOperation) exactly when it shows Return All, and then also Limit, Page Size, Simplify and Output',
		(_name, resource, operation, isListing) => {
			const own = resource.fields.filter((field) => field.displayOptions?.show?.resource?.includes(resource.name) && field.displayOptions.show.operation?.includes(operation));
			const names = new Set(own.map((field) => field.name));
			expect([operation, names.has('returnAll')]).toEqual([operation, isListing]);
			if (isListing) expect(['returnAll', 'limit', 'listOptions', 'simplify', 'output'].filter((name) => !names.has(name))).toEqual([]);
		},
	);

	it("the node's description is its resources' summaries (each written beside its list of operations), not a sentence kept apart", () => {
		expect(new ConsignmentVendor().description.description).toBe(nodeDescriptionOf(RESOURCES));
		for (const resource of RESOURCES) expect([resource.name, resource.summary.length > 0]).toEqual([resource.name, true]);
	});
});
