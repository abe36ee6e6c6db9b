import type { Locator } from 'playwright-core';

import type { StoredItem } from '../../sandbox/types';
import { openNode, openWorkflow } from '../browser';
import { expectText, type UiCheck } from './types';

const EXAMPLE = 'example-item-status-notify';
/** The example's Consignment Vendor Item Trigger (Events: Status Changed; Only When New Status Is: Approved, Rejected). */
const TRIGGER = 'Item status changed';
const STATUSES = ['approved', 'rejected'];
/** Fetch Test Event returns up to 5 items (pollItemStatuses.ts); the demo data has far more approved or rejected ones. */
const SAMPLE_SIZE = 5;

/** The output pane's table as a person reads it: one row per item, each cell's text under its column's name. */
async function tableRows(output: Locator): Promise<Array<Record<string, string>>> {
	const table = output.locator('table').first();
	const headers = (await table.locator('thead th').allInnerTexts()).map((header) => header.trim());
	const rows: Array<Record<string, string>> = [];
	for (const row of await table.locator('tbody tr').all()) {
		const cells = await row.locator(':scope > td').allInnerTexts();
		rows.push(Object.fromEntries(headers.map((header, i) => [header, (cells[i] ?? '').trim()]).filter(([header]) => header !== '')));
	}
	return rows;
}

/** Why a row is not the event the trigger emits for the sandbox's item (version 2's one shape), or undefined. */
function mismatch(row: Record<string, string>, items: StoredItem[]): string | undefined {
	if (row.event !== 'status_changed') return `event ${row.event} (the example takes only status_changed)`;
	if (!STATUSES.includes(row.status)) return `status ${row.status} (the example takes only ${STATUSES.join(', ')})`;
	// A sample event has no earlier status: null, never a made-up one.
	if (row.previous_status !== 'null') return `previous_status ${row.previous_status} (a test event has none: null)`;
	const item = items.find((candidate) => String(candidate.item_id) === row.item_id);
	if (item === undefined) return `item_id ${row.item_id}: no such item in the sandbox`;
	if (row.vendor_sku !== item.vendor_sku) return `vendor_sku ${row.vendor_sku}, the item's is ${item.vendor_sku}`;
	if (row.status !== item.validation_status) return `status ${row.status}, the item's is ${item.validation_status}`;
	// One shape whichever listing showed the item: price in whole cents (the non-approved listing lists dollars).
	if (row.price !== String(item.price)) return `price ${row.price}, the item's is ${item.price} cents`;
	// The approved listing shows no quantity (contract): null, not a guess.
	const quantity = item.validation_status === 'approved' ? 'null' : String(item.quantity);
	if (row.quantity !== quantity) return `quantity ${row.quantity}, expected ${quantity}`;
	return undefined;
}

export const itemTriggerEventCheck: UiCheck = {
	name: "the Item Trigger's Fetch Test Event: the panel shows the latest approved or rejected items, shaped as the events the workflow gets",
	async run({ page, browser, editorUrl, admin, workflowIds }) {
		await openWorkflow(page, editorUrl, workflowIds[EXAMPLE]);
		await openNode(page, TRIGGER);
		// n8n 2.x names the poll trigger's button Fetch Test Event (the panel's own and the one on the left).
		const fetch = page.locator('[data-test-id="node-execute-button"]').first();
		expectText("the trigger panel's button", await fetch.innerText(), 'Fetch Test Event');
		await fetch.click();
		const output = page.locator('[data-test-id="output-panel"]');
		await output.getByText(`${SAMPLE_SIZE} items`).waitFor({ timeout: 60_000 });

		await output.locator('[data-test-id="radio-button-table"]').click();
		const rows = await tableRows(output);
		const { items } = await admin.state();
		if (rows.length !== SAMPLE_SIZE) throw new Error(`the table shows ${rows.length} rows, the pane says ${SAMPLE_SIZE} items`);
		for (const row of rows) {
			const wrong = mismatch(row, items);
			if (wrong !== undefined) throw new Error(`item ${row.item_id} (${row.vendor_sku}) in the panel: ${wrong}`);
		}

		// The picture: the JSON view shows the first event whole, with what happened below the item's fields.
		await output.locator('[data-test-id="radio-button-json"]').click();
		const json = (await output.innerText()).replace(/\s+/g, ' ');
		expectText('the JSON view', json, `"vendor_sku": "${rows[0].vendor_sku}"`);
		expectText('the JSON view', json, `"event": "status_changed", "previous_status": null, "status": "${rows[0].status}"`);
		await browser.shot('08-item-trigger-test-event');
		return `${SAMPLE_SIZE} status_changed events (${rows.map((row) => `${row.vendor_sku} ${row.status}`).join(', ')}), each the sandbox's item, price in cents`;
	},
};
