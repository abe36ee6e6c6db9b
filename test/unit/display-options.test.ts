// Each operation declares where its fields show once, as n8n's Airtable v2 does: `updateDisplayOptions(displayOptions,
// [...])` in its own file, with `displayOptions = { show: { resource: [...], operation: [...] } }`. The field builders
// they call (list, Simplify, Output, locators, item and address fields) carry only extra conditions (`@version`,
// `returnAll`, …): a builder that named a resource or an operation would show its fields elsewhere, and lodash's merge
// in updateDisplayOptions would mix its arrays with the operation's index by index.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import { OPERATIONS } from './registry';

const nodeDir = join(__dirname, '..', '..', 'nodes', 'ConsignmentVendor');
const resourcesDir = join(nodeDir, 'resources');

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? tsFiles(path) : path.endsWith('.ts') ? [path] : [];
	});
}

/** Where a resource's or operation's name may be written in a display condition: the selector, and Preview Only (a field of the resource, shown for several operations). */
const ALLOWED = ['shared/resource.ts', 'resources/item/helpers/itemPreview.ts'];
const DECLARATION = /^const displayOptions = \{ show: \{ resource: \['(\w+)'\], operation: \['(\w+)'\] \} \};$/m;

describe('display options, declared once per operation', () => {
	it('no field builder or operation names a resource or an operation in a display condition but the one declaration', () => {
		const offending = [...tsFiles(resourcesDir), ...tsFiles(join(nodeDir, 'shared'))]
			.map((file) => ({ file: relative(nodeDir, file), text: readFileSync(file, 'utf8').replace(DECLARATION, '') }))
			.filter(({ file }) => !ALLOWED.includes(file))
			.filter(({ text }) => /\b(resource|operation): \[/.test(text))
			.map(({ file }) => file);
		expect(offending).toEqual([]);
	});

	it.each(OPERATIONS.map(({ resource, operation }) => [resource.name, operation]))(
		'%s → %s: its fields come from one updateDisplayOptions of its own resource and operation',
		(resource, operation) => {
			const { fields } = OPERATIONS.find((entry) => entry.resource.name === resource && entry.operation === operation)!.resource;
			// Its own fields: shown for this operation alone (Preview Only, shown for several, is the resource's).
			const own = fields.filter((field) => JSON.stringify(field.displayOptions?.show?.operation) === JSON.stringify([operation]));
			if (own.length === 0) return; // Vendor Get has no parameters.
			const declaring = tsFiles(resourcesDir)
				.map((file) => DECLARATION.exec(readFileSync(file, 'utf8')))
				.filter((match) => match?.[1] === resource && match[2] === operation);
			expect([resource, operation, declaring.length]).toEqual([resource, operation, 1]);
		},
	);
});
