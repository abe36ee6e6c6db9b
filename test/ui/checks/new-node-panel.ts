import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_DIR } from '../../e2e/lib/package-loader';
import { openConsignmentVendorDetails } from './node-list';
import { expectText, type UiCheck } from './types';

/** The labels the README's first workflow tells a person to look for on this panel, in its own emphasis. */
const README_LABELS = ['Consignment', 'Mapping Column Mode', 'Map Automatically', 'Price Unit', 'Preview Only'];

function firstWorkflowSection(): string {
	const readme = readFileSync(join(REPO_DIR, 'README.md'), 'utf8');
	const start = readme.indexOf('## First workflow');
	return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

export const newNodePanelCheck: UiCheck = {
	name: 'a new Create or Update node: one mapping choice, Price Unit, Preview Only with its hint; the README names what is on screen',
	async run({ page, browser, editorUrl }) {
		await openConsignmentVendorDetails(page, editorUrl);
		const creator = page.locator('[data-test-id="node-creator"]');
		await creator.getByText(/^Actions \(\d+\)$/).click();
		await page.locator('[data-test-id="item-iterator-item"]', { hasText: 'Create or update an item' }).click();
		const parameters = page.locator('[data-test-id="node-parameters"]');
		await page.locator('[data-test-id="parameter-input-previewOnly"]').waitFor();
		await browser.shot('03-new-create-or-update-panel-top');
		const mappingChoices = await page.locator('[data-test-id="mapping-mode-select"]').count();
		const fieldMapping = await page.locator('[data-test-id="parameter-input-fieldMapping"]').count();
		if (mappingChoices !== 1 || fieldMapping !== 0) {
			throw new Error(`expected one mapping choice (the column mapper's mode) and no Field Mapping; the panel has ${mappingChoices} mapper mode(s) and ${fieldMapping} Field Mapping selector(s)`);
		}
		const text = await parameters.innerText();
		const priceUnit = await page.locator('[data-test-id="parameter-input-priceUnit"] input').first().inputValue();
		// Which unit a new node starts with is the node's choice; that it reads as a plain unit name is the check.
		if (!['Cents', 'Dollars'].includes(priceUnit)) throw new Error(`Price Unit shows "${priceUnit}", expected Cents or Dollars`);
		expectText('the Preview Only hint of Create or Update', text, 'The item listings are still read to find each row; no item is created or changed');

		await page.locator('[data-test-id="parameter-input-previewOnly"]').scrollIntoViewIfNeeded();
		await browser.shot('04-new-create-or-update-panel-price-unit-preview-only');
		const readme = firstWorkflowSection();
		for (const label of README_LABELS) {
			if (!new RegExp(`\\*{1,2}${label}[.:]?\\*{1,2}`).test(readme)) throw new Error(`the README's first workflow does not name *${label}*`);
			expectText(`"${label}", which the README's first workflow names,`, `${text}\n${await page.locator('[data-test-id="mapping-mode-select"] input').inputValue()}`, label);
		}
		return `1 mapping choice, Price Unit "${priceUnit}", Preview Only hint shown; README labels on screen: ${README_LABELS.join(', ')}`;
	},
};
