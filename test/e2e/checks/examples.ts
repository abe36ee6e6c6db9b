import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { EXAMPLE_PREFIX, EXAMPLES_DIR } from '../lib/templates';
import { apiRequests, describeRequests, expectEqual, expectSuccess, outputItemsOf, outputOf } from './expect';
import { binaryBytes, waitForExecution } from './executions';
import { exampleNodeProblems } from './nodeParameters';
import { emitPurchase, triggerCheck, withActiveTrigger } from './trigger-session';
import { fail, sandboxCheck, type Check, type CheckContext } from './types';
import { workflowCheck } from './workflow-check';

/** A node of an example workflow as the file holds it (what a user imports). */
function exampleNode(example: string, node: string): { parameters: Record<string, unknown> } {
	const workflow = JSON.parse(readFileSync(join(EXAMPLES_DIR, `${example}.json`), 'utf8')) as { nodes: Array<{ name: string; parameters: Record<string, unknown> }> };
	const found = workflow.nodes.find((candidate) => candidate.name === node);
	if (!found) fail(`example ${example} has no node "${node}"`);
	return found;
}

/** Fails naming every parameter of the example's third-party nodes that this n8n version would not take as it is. */
function expectValidNodes(ctx: CheckContext, example: string, nodes: string[]): void {
	const problems = nodes.flatMap((node) => exampleNodeProblems(ctx.instance, example, node).map((problem) => `${node}: ${problem}`));
	if (problems.length) fail(`example ${example} in n8n ${ctx.version}: ${problems.join(' | ')}`);
}

const MIRROR_EXAMPLE = 'shopify-to-marketplace-mirror';
const SHOPIFY_INVENTORY_EXAMPLE = 'item-purchased-to-shopify-inventory';

/** The examples of examples/ (README), run against the sandbox with their stand-ins for third-party nodes. */
export const exampleChecks: Check[] = [
	workflowCheck({
		name: 'example products-sheet-to-consignment-items: Map Automatically, dollars to cents, refused rows on the error branch',
		workflow: `${EXAMPLE_PREFIX}products-sheet-to-consignment-items`,
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'products-sheet-to-consignment-items');
			const create = exampleNode('products-sheet-to-consignment-items', 'Create items');
			if ((create.parameters.itemColumns as { mappingMode?: string } | undefined)?.mappingMode !== 'autoMapInputData' || JSON.stringify(create.parameters).includes('={{')) {
				fail('the example\'s "Create items" node is not mapped automatically, or holds an expression');
			}
			const submitted = outputOf(outcome, 'Submitted').map((i) => i.vendor_sku);
			expectEqual(submitted, ['SHEET-001', 'SHEET-002', 'SHEET-005'], 'rows on the success branch');
			const toFix = outputOf(outcome, 'Rows to fix');
			expectEqual(toFix.map((r) => r.SKU), ['SHEET-003', 'SHEET-004'], 'rows on the error branch ("Rows to fix")');
			if (!/price/i.test(String(toFix[0].Problem))) fail(`SHEET-003's problem does not name the price: ${String(toFix[0].Problem)}`);
			if (!/designer/i.test(String(toFix[1].Problem))) fail(`SHEET-004's problem does not name the designer: ${String(toFix[1].Problem)}`);
			const posts = apiRequests(requests).filter((r) => r.method === 'POST');
			expectEqual(posts.map((r) => (r.body as { items: unknown[] }).items.length), [4], 'items per creation request (the row with a bad price is not sent)');
			const stored = (sku: string) => state.items.find((i) => i.vendor_sku === sku);
			expectEqual([stored('SHEET-001')?.price, stored('SHEET-001')?.msrp, stored('SHEET-002')?.price], [389999, 540000, 28950], 'stored cents');
			return `3 submitted, 2 to fix: ${toFix.map((r) => `${String(r.SKU)}: ${String(r.Problem).slice(0, 60)}`).join(' | ')}`;
		},
	}),
	workflowCheck({
		name: 'example failed-rows-back-in: failed rows leave with their columns + error, fixed, sent again; every item exists once; run summary hints',
		workflow: `${EXAMPLE_PREFIX}failed-rows-back-in`,
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'failed-rows-back-in');
			expectEqual(outputOf(outcome, 'Done').map((i) => i.vendor_sku), ['SHEET-101', 'SHEET-104'], 'rows done in the first pass');
			const failed = outputOf(outcome, 'Failed rows tab');
			expectEqual(failed.map((r) => r.vendor_sku), ['SHEET-102', 'SHEET-103'], 'rows on the error output');
			for (const row of failed) {
				if (typeof row.error !== 'string' || row.taxon_permalink !== 'women/handbags/totes' || row.row_number === undefined) {
					fail(`a failed row lost its own columns or has no text error: ${JSON.stringify(row).slice(0, 300)}`);
				}
			}
			if (!/designer/i.test(String(failed[0].error)) || !/price/i.test(String(failed[1].error))) fail(`the errors do not name the field: ${failed.map((r) => String(r.error)).join(' | ')}`);
			expectEqual(outputOf(outcome, 'Done (failed rows)').map((i) => [i.vendor_sku, i.operation]), [['SHEET-102', 'created'], ['SHEET-103', 'created']], 'fixed rows, second pass');
			const stored = state.items.filter((i) => i.vendor_sku.startsWith('SHEET-1')).map((i) => i.vendor_sku).sort();
			expectEqual(stored, ['SHEET-101', 'SHEET-102', 'SHEET-103', 'SHEET-104'], 'items in the service (each once)');
			const posts = apiRequests(requests).filter((r) => r.method === 'POST');
			expectEqual(posts.map((r) => (r.body as { items: unknown[] }).items.length), [3, 2], 'items per creation request (SHEET-103 "TBD" not sent in the first pass)');
			const hints = (outcome.runData?.['Create or Update items']?.[0]?.hints ?? []).map((h) => h.message);
			expectEqual(hints, ['4 items: 2 submitted · 0 unconfirmed (sent, but not confirmed by the service) · 1 failed · 1 invalid'], 'run summary (execution hints) of the first pass');
			return `first pass: 2 submitted, 2 to the failed rows tab; second pass: 2 created; 4 items, each once; hint "${hints[0]}"`;
		},
	}),
	workflowCheck({
		name: 'example nightly-approved-items-export: every approved item into one dated CSV file (Output: File), prices in cents and dollars',
		workflow: `${EXAMPLE_PREFIX}nightly-approved-items-export`,
		// 150 more approved items than the seed's 26: Return All (100 per page) must follow the cursor to page 2.
		setup: async (admin) => {
			await admin.seedItems({ count: 150, status: 'approved' });
		},
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'nightly-approved-items-export');
			const approved = state.items.filter((i) => i.validation_status === 'approved');
			const pages = apiRequests(requests);
			expectEqual(pages.length, Math.ceil(approved.length / 100), `pages of 100 (${describeRequests(pages)})`);
			const files = outputItemsOf(outcome, 'Approved items (CSV)');
			expectEqual(files.map((file) => [file.json.part, file.json.records]), [[1, approved.length]], 'one file of every approved item');
			const binary = files[0].binary?.data;
			if (!binary || !/^approved-items-\d{4}-\d{2}-\d{2}\.csv$/.test(String(binary.fileName))) fail(`no dated CSV file in the output: ${JSON.stringify(files[0].binary)}`);
			// In memory (1.x's default) the file is base64 in the run data; in filesystem mode only its id and size.
			const text = binary.data && !binary.id ? Buffer.from(binary.data, 'base64').toString('utf8') : undefined;
			if (text !== undefined) {
				const lines = text.replace(/^\uFEFF/, '').trim().split('\r\n');
				expectEqual(lines.length, approved.length + 1, 'CSV lines (header + one per approved item)');
				if (!lines[0].startsWith('id,item_id,vendor_sku') || !lines[0].includes('price,price_dollars')) fail(`CSV header: ${lines[0]}`);
			}
			return `${approved.length} items in ${pages.length} requests -> ${String(binary.fileName)} (${binary.fileSize ?? `${text?.length} chars`})`;
		},
	}),
	workflowCheck({
		name: 'example product-feed-upsert: feed variants upserted by vendor SKU',
		workflow: `${EXAMPLE_PREFIX}product-feed-upsert`,
		verify({ outcome, state }) {
			expectSuccess(outcome, 'product-feed-upsert');
			const out = outputOf(outcome, 'Upsert items');
			const failed = out.filter((i) => i.status === 'failed' || i.error);
			if (failed.length) fail(`upsert failures: ${JSON.stringify(failed).slice(0, 400)}`);
			expectEqual(out.length, 3, 'output items');
			const stored = (sku: string) => state.items.find((i) => i.vendor_sku === sku);
			expectEqual(stored('SBX-1001')?.price, 415000, 'SBX-1001 price (pending item updated)');
			// SBX-1004 is approved: its listing shows no quantity, so the feed's quantity (which may be an increase) is not
			// sent and the row says why (Update → Address and Quantity Only decreases it).
			expectEqual(stored('SBX-1004')?.quantity, 2, 'SBX-1004 quantity (approved item: not sent)');
			const approved = out.find((i) => i.vendor_sku === 'SBX-1004');
			if (typeof approved?.quantityNotSent !== 'string') fail(`SBX-1004 output says nothing of its quantity: ${JSON.stringify(approved)}`);
			expectEqual(stored('FEED-NEW-001')?.consignment_id, '1001', 'FEED-NEW-001 created in consignment 1001');
			return out.map((i) => `${String(i.vendor_sku)}: ${String(i.status ?? i.action ?? '?')}`).join(', ');
		},
	}),
	sandboxCheck('cli', `example ${MIRROR_EXAMPLE}: the Shopify node's parameters valid; the sample path previews the mirror (would set to 0, the guard's verdict), no write`, async (ctx, admin) => {
		expectValidNodes(ctx, MIRROR_EXAMPLE, ['Every 15 minutes', 'Shopify: every product']);
		await admin.reset();
		await admin.clearRequests();
		// `n8n execute` starts at the first trigger of the file: "Try it: sample products", placed first for this.
		const outcome = await ctx.execute(`${EXAMPLE_PREFIX}${MIRROR_EXAMPLE}`);
		expectSuccess(outcome, MIRROR_EXAMPLE);
		const writes = apiRequests(await admin.requests()).filter((r) => r.method !== 'GET');
		if (writes.length) fail(`the example (Preview Only) sent writes: ${describeRequests(writes)}`);
		const output = outputOf(outcome, 'Mirror onto the marketplace');
		const rows = output.filter((item) => item.missingFromInput !== true);
		expectEqual(rows.map((item) => [item.vendor_sku, item.preview]), [['SBX-1001', 'would update'], ['SBX-1004', 'not applied']], 'the sample variants in stock (rows)');
		const missing = output.filter((item) => item.missingFromInput === true);
		const sold = missing.find((item) => item.vendor_sku === 'SBX-1006');
		// Sold in the shop (inventory 0): not a row, so its listed item would be set to 0; the sample is a small part
		// of the sandbox's catalogue, so the guard's verdict is on every listed item.
		if (sold?.preview !== 'would set to 0' || typeof sold.guard !== 'string') fail(`SBX-1006 (out of stock in the shop) is not listed as would set to 0 with the guard's verdict: ${JSON.stringify(sold)}`);
		return `rows: ${rows.length}; ${missing.length} listed items not in the shop, e.g. SBX-1006: ${String(sold.operation)}`;
	}),
	triggerCheck(
		`${EXAMPLE_PREFIX}${SHOPIFY_INVENTORY_EXAMPLE}`,
		`example ${SHOPIFY_INVENTORY_EXAMPLE}: the HTTP Request (Shopify) nodes' parameters valid; activated, a purchase reaches the Shopify step with its label (the shop itself cannot be reached from CI)`,
		async ({ ctx, api, id }) => {
			expectValidNodes(ctx, SHOPIFY_INVENTORY_EXAMPLE, ['Shop settings', 'Shopify: find the variant by SKU', 'Shopify: lower its inventory by 1', 'Event and label']);
			return await withActiveTrigger(ctx, `${EXAMPLE_PREFIX}${SHOPIFY_INVENTORY_EXAMPLE}`, '5c1d7a0e-9b7e-4f3c-8a52-0c0ffee00029', async () => {
				const { sku } = await emitPurchase(ctx, { vendor_sku: 'SBX-1000' });
				const { execution, item, binary } = await waitForExecution(api, id, 'Shop settings', (json) => json.sku === sku, `execution for ${sku}`);
				expectEqual([item.vendor_sku, item.shop], ['SBX-1000', 'your-shop.myshopify.com'], 'the event with the shop settings');
				if (binary?.data?.mimeType !== 'application/pdf') fail(`the label is not carried on as binary "data": ${JSON.stringify(binary)}`);
				const ran = Object.keys(execution.data?.resultData?.runData ?? {});
				if (!ran.includes('Shopify: find the variant by SKU')) fail(`the Shopify step did not run; nodes that ran: ${ran.join(', ')}`);
				return `purchase ${sku} → Shop settings (label ${binary.data.fileName}) → Shopify step tried (${execution.status ?? '?'}: the shop is not reachable from CI)`;
			});
		},
	),
	triggerCheck(
		`${EXAMPLE_PREFIX}item-purchased-notify`,
		'example item-purchased-notify: activated, a purchase becomes a message with the platform SKU and the label PDF attached (or why it is not); deactivation restores the URL',
		async ({ ctx, api, id }) => {
			return await withActiveTrigger(ctx, `${EXAMPLE_PREFIX}item-purchased-notify`, '5c1d7a0e-9b7e-4f3c-8a52-0c0ffee00002', async () => {
				const { sku } = await emitPurchase(ctx, { vendor_sku: 'SBX-1000' });
				const { item, binary } = await waitForExecution(api, id, 'Send notification', (json) => json.sku === sku, `notification for ${sku}`);
				expectEqual(item.text, `Sold: SBX-1000 (platform SKU ${sku}). Shipping label attached.`, 'the message');
				const label = binary?.data;
				if (label?.mimeType !== 'application/pdf') fail(`the notification has no PDF in the binary field "data": ${JSON.stringify(binary)}`);
				const bytes = await binaryBytes(api, label);
				if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) fail(`the attached label is not a PDF: ${JSON.stringify(bytes.subarray(0, 12).toString('latin1'))}`);

				const missing = `${ctx.target.baseUrl}/labels/NO-SUCH-ORDER.pdf`;
				const unlabelled = await emitPurchase(ctx, { vendor_sku: 'SBX-1002', pdf_url: missing });
				const failed = await waitForExecution(api, id, 'Send notification', (json) => json.sku === unlabelled.sku, `notification for ${unlabelled.sku}`);
				expectEqual(
					failed.item.text,
					`Sold: SBX-1002 (platform SKU ${unlabelled.sku}). Shipping label not attached (The label could not be downloaded: HTTP 404), get it at ${missing}`,
					'the message when the label cannot be downloaded',
				);
				return `"${String(item.text)}" + ${label.fileName} (${bytes.length} bytes); "${String(failed.item.text)}"`;
			});
		},
	),
];
