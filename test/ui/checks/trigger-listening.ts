import { pollUntil } from '../../e2e/checks/types';
import { openNode, openWorkflow } from '../browser';
import { expectText, type UiCheck } from './types';

const EXAMPLE = 'example-item-purchased-notify';
const TRIGGER = 'Consignment Vendor Trigger';

export const triggerListeningCheck: UiCheck = {
	name: "the trigger's test listening (Execute step) receives a signed sandbox event and shows it",
	async run({ page, browser, editorUrl, admin, workflowIds }) {
		await openWorkflow(page, editorUrl, workflowIds[EXAMPLE]);
		await openNode(page, TRIGGER);
		await page.locator('[data-test-id="node-execute-button"]').first().click();
		// Listening registers n8n's test URL with the vendor (the trigger's webhookMethods): then the sandbox sends there.
		const vendor = await pollUntil(
			async () => (await admin.state()).vendor,
			(v) => String(v.webhook_url).includes('/webhook-test/'),
			30_000,
			(v) => `the vendor's webhook URL did not move to n8n's test URL within 30 s: ${String(v.webhook_url)}`,
			250,
		);
		await browser.shot('06-trigger-listening');
		const delivery = await admin.emitEvent({ operation: 'item_purchased', data: { vendor_sku: 'SBX-1000' } });
		if (delivery.status !== 200) {
			throw new Error(`the delivery to ${vendor.webhook_url ?? '?'} was answered ${String(delivery.status ?? delivery.error)} (401: unsigned, or another signing secret than the credential's)`);
		}
		const output = page.locator('[data-test-id="output-panel"]');
		await output.getByText('1 item').waitFor({ timeout: 30_000 });
		await output.locator('[data-test-id="radio-button-json"]').click();
		const sku = String((delivery.body as { body?: { data?: { sku?: unknown } } }).body?.data?.sku ?? '');
		await output.getByText(sku).first().waitFor();
		await browser.shot('07-trigger-received-event');
		const text = await output.innerText();
		expectText('the trigger output', text, 'SBX-1000');
		expectText('the trigger output', text, sku);
		return `delivery to n8n's test URL answered 200; the panel shows the purchase of SBX-1000 (${sku})`;
	},
};
