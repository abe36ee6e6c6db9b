// The docs that enumerate operations, against the registry (RESOURCES and each resource's list): docs/design.md's
// public names and its table of where each operation lives, docs/list-to-file.md's list operations and their files'
// default names. A new operation the docs forget fails here, as readme.test.ts does for the README's table.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { RESOURCES } from '../../nodes/ConsignmentVendor/ConsignmentVendor.node';
import { listingName } from '../../nodes/ConsignmentVendor/shared/listOperation';
import { LIST_OPERATIONS, OPERATIONS } from './registry';

const doc = (name: string) => readFileSync(join(__dirname, '..', '..', 'docs', name), 'utf8');
const design = doc('design.md');
const listToFile = doc('list-to-file.md');

/** `Resource Operation` as the docs write an operation (e.g. `Item Create or Update`). */
const everyOperation = OPERATIONS.map(({ resource, option }) => `${resource.displayName} ${option.name}`).sort();
const everyListOperation = LIST_OPERATIONS.map(({ resource, option }) => `${resource.displayName} ${option.name}`).sort();

/**
 * "Item Get Many, Get Many Non-Approved, Address → Get Many" -> each as `Resource Operation`: a part that does not
 * start with a resource's name belongs to the resource named before it.
 */
function operationsIn(text: string): string[] {
	let current = '';
	return text.split(',').map((part) => {
		const words = part.replace(/→/g, ' ').replace(/\s+/g, ' ').trim();
		const resource = RESOURCES.find(({ displayName }) => words.startsWith(`${displayName} `));
		if (resource) current = resource.displayName;
		return resource ? words : `${current} ${words}`;
	});
}

describe('docs/design.md', () => {
	it('public names: resources → operations holds every resource with the values of its operations', () => {
		const row = /^\| resources → operations \| (.+) \|$/m.exec(design)?.[1] ?? '';
		const documented = Object.fromEntries(
			row.split(';').map((entry) => {
				const [resource, ...operations] = [...entry.matchAll(/`(\w+)`/g)].map(([, value]) => value);
				return [resource, operations.sort()];
			}),
		);
		const registered = Object.fromEntries(RESOURCES.map(({ name }) => [name, OPERATIONS.filter(({ resource }) => resource.name === name).map(({ operation }) => operation).sort()]));
		expect(documented).toEqual(registered);
	});

	it('the table of where each operation lives: every operation once, the list operations on listOperation.ts', () => {
		const rows = [...design.matchAll(/^ {2}\| ([^|]+) \| [^|]+ \| `([^`]+)` \|$/gm)].filter(([, first]) => first.trim() !== 'operation');
		const documented = rows.flatMap(([, operations]) => operationsIn(operations));
		expect(documented.sort()).toEqual(everyOperation);
		const onListRunner = rows.filter(([, , runner]) => runner === 'shared/listOperation.ts').flatMap(([, operations]) => operationsIn(operations));
		expect(onListRunner.sort()).toEqual(everyListOperation);
	});
});

describe('docs/list-to-file.md', () => {
	it('names every list operation', () => {
		const list = /Every list operation \(([^)]+)\)/.exec(listToFile)?.[1] ?? '';
		expect(operationsIn(list).sort()).toEqual(everyListOperation);
	});

	it("File Name: each listing's default name", () => {
		const row = /^\| File Options → File Name \|.+\|$/m.exec(listToFile)?.[0] ?? '';
		const documented = [...(/the listing's name \(([^)]+)\)/.exec(row)?.[1] ?? '').matchAll(/`([^`]+)`/g)].map(([, name]) => name);
		expect(documented.sort()).toEqual(LIST_OPERATIONS.map(({ listing }) => listingName(listing.url)).sort());
	});
});
