// The README's first workflow and operations table, against the node itself: a user follows them in the editor, so
// a column the mapper needs but the README leaves out, or an operation the table forgets, is a wrong instruction.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodePropertyOptions } from 'n8n-workflow';

import { ConsignmentVendor } from '../../nodes/ConsignmentVendor/ConsignmentVendor.node';
import { columnsFor } from '../../nodes/ConsignmentVendor/resources/item/helpers/itemColumns';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** The text of the README's `## <title…>` section, up to the next `## `. */
function section(title: string): string {
	const start = readme.indexOf(`\n## ${title}`);
	if (start < 0) throw new Error(`README has no section "${title}"`);
	const end = readme.indexOf('\n## ', start + 1);
	return readme.slice(start, end < 0 ? undefined : end);
}

describe('README', () => {
	it('is for the person in the editor: at most 200 lines, with pictures of the editor that npm run test:ui writes', () => {
		expect(readme.split('\n').length).toBeLessThanOrEqual(200);
		const pictures = [...readme.matchAll(/!\[[^\]]+\]\((docs\/images\/[^)]+\.png)\)/g)].map(([, path]) => path);
		// What issue 37 asks the front door to show: the first workflow with its run summary, an Item Trigger event.
		expect(pictures).toEqual(expect.arrayContaining(['docs/images/editor-first-workflow-run.png', 'docs/images/editor-item-trigger-event.png']));
		const writtenByUi = readFileSync(join(__dirname, '..', 'ui', 'run.ts'), 'utf8');
		for (const path of pictures) {
			expect(writtenByUi).toContain(`'${path.slice('docs/images/'.length)}'`);
			expect(existsSync(join(__dirname, '..', '..', path))).toBe(true);
		}
	});

	it('keeps the two commands at the very top', () => {
		const firstBlock = readme.split('```')[1];
		expect(firstBlock).toMatch(/^sh\nnpm install && npm run dev +# .+\nnpm test +# .+\n$/);
	});

	it("first workflow: names every column Create or Update maps, required ones before 'optional:'", () => {
		const sheetStep = section('First workflow').split('\n2. ')[0];
		const [requiredPart, optionalPart] = sheetStep.split('optional:');
		const columns = columnsFor('upsert');
		const named = (text: string) => columns.filter((column) => text.includes(`\`${column.id}\``)).map((column) => column.id);
		expect(named(requiredPart)).toEqual(columns.filter((column) => column.required).map((column) => column.id));
		expect(named(optionalPart)).toEqual(columns.filter((column) => !column.required).map((column) => column.id));
	});

	it('operations table: one row per operation the node offers, under its resource', () => {
		const { properties } = new ConsignmentVendor().description;
		const resources = properties.find((property) => property.name === 'resource')!.options as INodePropertyOptions[];
		const offered = resources.flatMap((resource) =>
			properties
				.filter((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource.value))
				.flatMap((property) => (property.options as INodePropertyOptions[]).map((operation) => `${resource.name} → ${operation.name}`)),
		);
		const rows = [...section('Operations').matchAll(/^\| (\w+) \| ([^|]+?) \| [^|]+ \|$/gm)]
			.filter(([, resource]) => resource !== 'resource')
			.map(([, resource, operation]) => `${resource} → ${operation}`);
		expect(rows.sort()).toEqual(offered.sort());
	});
});
