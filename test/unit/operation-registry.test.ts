// Adding an operation is its file, one line in its resource's list, a test and a README row (docs/development.md,
// "Adding an operation"): this holds each of them, so a forgotten one fails here rather than at run time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { RESOURCES } from '../../nodes/ConsignmentVendor/ConsignmentVendor.node';
import { TOOL_DESCRIPTION_CASES } from './tool-description-cases';

const root = join(__dirname, '..', '..');
const resourcesDir = join(root, 'nodes', 'ConsignmentVendor', 'resources');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const workflowFiles = ['test/e2e/workflows', 'examples'].flatMap((dir) =>
	readdirSync(join(root, dir))
		.filter((file) => file.endsWith('.json'))
		.map((file) => readFileSync(join(root, dir, file), 'utf8')),
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
		'%s → %s: a README row, a real-n8n workflow and a tool description check',
		(resourceName, operationName, resource, operation) => {
			expect(readme).toContain(`| ${resourceName} | ${operationName} |`);
			const runsInN8n = workflowFiles.some((text) => text.includes(`"resource": "${resource}"`) && text.includes(`"operation": "${operation}"`));
			expect([resource, operation, runsInN8n]).toEqual([resource, operation, true]);
			expect(TOOL_DESCRIPTION_CASES.map(([r, o]) => `${r}/${o}`)).toContain(`${resource}/${operation}`);
		},
	);
});
