import type { Page } from 'playwright-core';

import { expectText, type UiCheck } from './types';

/** The node list of a new workflow, searched as a person types. */
export async function searchNodes(page: Page, editorUrl: string, text: string): Promise<void> {
	await page.goto(`${editorUrl}/workflow/new`);
	await page.locator('[data-test-id="canvas-add-button"]').click();
	await page.locator('[data-test-id="node-creator"]').waitFor();
	await page.keyboard.type(text);
}

/** An entry of the node list by its exact name. */
export function nodeEntry(page: Page, name: string) {
	const exactName = page.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^\\s*${name}\\s*$`) });
	return page.locator('[data-test-id="item-iterator-item"]', { has: exactName });
}

/** The details page of Consignment Vendor's entry (n8n 2.x shows the action node and its trigger as one entry). */
export async function openConsignmentVendorDetails(page: Page, editorUrl: string): Promise<string> {
	await searchNodes(page, editorUrl, 'Consignment');
	await nodeEntry(page, 'Consignment Vendor').click();
	const creator = page.locator('[data-test-id="node-creator"]');
	await creator.getByText(/^Actions \(\d+\)$/).waitFor();
	return await creator.innerText();
}

/** What the action node does, in the entry's words: the trigger's text alone (the bug) has none of it. */
const ACTION_NODE_TEXT = /submit and update items, manage addresses, read consignments and cancel orders/;
const TRIGGER_TEXT = /vendor event/;

export const nodeListCheck: UiCheck = {
	name: 'node list: "Consignment" lists Consignment Vendor and the item trigger; each entry and the details page describe their own node',
	async run({ page, browser, editorUrl }) {
		await searchNodes(page, editorUrl, 'Consignment');
		const vendor = nodeEntry(page, 'Consignment Vendor');
		const itemTrigger = nodeEntry(page, 'Consignment Vendor Item');
		await itemTrigger.waitFor();
		await browser.shot('01-node-list-search-consignment');
		const vendorText = await vendor.innerText();
		expectText('the Consignment Vendor entry', vendorText, ACTION_NODE_TEXT);
		expectText('the Consignment Vendor entry', vendorText, TRIGGER_TEXT);
		expectText('the Consignment Vendor Item entry', await itemTrigger.innerText(), /one of the vendor's items changes validation status/);

		const details = await openConsignmentVendorDetails(page, editorUrl);
		await browser.shot('02-node-details-consignment-vendor');
		expectText('the Consignment Vendor details page', details, ACTION_NODE_TEXT);
		expectText('the Consignment Vendor details page', details, /Actions \(14\)/);
		expectText('the Consignment Vendor details page', details, /Triggers \(6\)/);
		return 'entries: Consignment Vendor (actions and trigger), Consignment Vendor Item; details: 14 actions, 6 triggers, text names both';
	},
};
