import { EXAMPLE_PREFIX, SANDBOX_SIGNING_SECRET } from '../lib/templates';
import { apiRequests, describeRequests, expectEqual, expectSuccess, outputItemsOf, outputOf } from './expect';
import { waitForExecution } from './executions';
import { fail, sandboxOf, type Check } from './types';
import { VendorDirect, type VendorProfile } from './vendor-direct';
import { workflowCheck } from './workflow-check';

/** The examples of examples/ (README), run against the sandbox with their stand-ins for third-party nodes. */
export const exampleChecks: Check[] = [
	workflowCheck({
		name: 'example products-sheet-to-consignment-items: dollars to cents, refused rows on the error branch',
		workflow: `${EXAMPLE_PREFIX}products-sheet-to-consignment-items`,
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'products-sheet-to-consignment-items');
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
		name: 'example nightly-approved-items-export: Return All of approved items into one CSV file',
		workflow: `${EXAMPLE_PREFIX}nightly-approved-items-export`,
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'nightly-approved-items-export');
			const approved = state.items.filter((i) => i.validation_status === 'approved').length;
			expectEqual(outputOf(outcome, 'Approved items').length, approved, 'approved items read');
			const pages = apiRequests(requests);
			if (pages.length < 2) fail(`expected several pages, saw ${describeRequests(pages)}`);
			const [file] = outputItemsOf(outcome, 'CSV file');
			const binary = file?.binary?.data;
			if (!binary || !/^approved-items-\d{4}-\d{2}-\d{2}\.csv$/.test(String(binary.fileName))) fail(`no CSV file in the output: ${JSON.stringify(file?.binary)}`);
			// In memory the file is base64; in filesystem mode only its size is in the run data.
			const text = binary.data && !binary.id ? Buffer.from(binary.data, 'base64').toString('utf8') : undefined;
			if (text !== undefined) {
				const lines = text.trim().split('\n');
				expectEqual(lines.length, approved + 1, 'CSV lines (header + one per approved item)');
				if (!lines[0].includes('SKU') || !lines[0].includes('Price ($)')) fail(`CSV header: ${lines[0]}`);
			}
			return `${approved} items in ${pages.length} requests -> ${String(binary.fileName)} (${binary.fileSize ?? `${text?.length} chars`})`;
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
			expectEqual(stored('SBX-1004')?.quantity, 1, 'SBX-1004 quantity (approved item decreased)');
			expectEqual(stored('FEED-NEW-001')?.consignment_id, '1001', 'FEED-NEW-001 created in consignment 1001');
			return out.map((i) => `${String(i.vendor_sku)}: ${String(i.status ?? i.action ?? '?')}`).join(', ');
		},
	}),
	{
		name: 'example item-purchased-notify: activated, a purchase becomes a message with the platform SKU and label; deactivation restores the URL',
		phase: 'server',
		needsSandbox: true,
		async run(ctx) {
			const api = ctx.server!.api;
			const vendor = new VendorDirect(ctx.target);
			const id = ctx.workflowId(`${EXAMPLE_PREFIX}item-purchased-notify`);
			// The suite's credential carries the signing secret, so the sandbox must sign (unsigned events are refused).
			await sandboxOf(ctx).setSigningSecret(SANDBOX_SIGNING_SECRET);
			const before = await vendor.get();
			await api.activate(id);
			const url = `${ctx.server!.server.url}/webhook/5c1d7a0e-9b7e-4f3c-8a52-0c0ffee00002/webhook`;
			await vendor.waitFor((p) => p.webhook_url === url && p.preferences.webhook_enabled, `webhook_url ${url}`);
			const delivery = await sandboxOf(ctx).emitEvent({ operation: 'item_purchased', data: { vendor_sku: 'SBX-1000' } });
			const sku = (delivery.body as { body?: { data?: { sku?: string } } }).body?.data?.sku;
			if (delivery.status !== 200 || !sku) fail(`delivery answered ${delivery.status ?? delivery.error}: ${delivery.rawBody}`);
			const { item } = await waitForExecution(api, id, 'Compose message', (json) => json.sku === sku, `notification for ${sku}`);
			if (!String(item.text).includes(sku) || !String(item.text).includes(`${ctx.target.baseUrl}/labels/${sku}.pdf`)) fail(`message lacks the SKU or label: ${String(item.text)}`);
			await api.deactivate(id);
			// With no previous URL the trigger switches webhooks off and leaves its URL (the contract documents no way
			// to clear webhook_url); otherwise the previous URL and flag come back exactly.
			const restored = before.webhook_url
				? (p: VendorProfile) => p.webhook_url === before.webhook_url && p.preferences.webhook_enabled === before.preferences.webhook_enabled
				: (p: VendorProfile) => !p.preferences.webhook_enabled;
			await vendor.waitFor(restored, `previous webhook configuration ${JSON.stringify(before)} restored`);
			return String(item.text);
		},
	},
];
