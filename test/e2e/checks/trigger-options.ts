import type { RequestLogEntry } from '../../sandbox/types';
import { expectEqual } from './expect';
import { binaryBytes, executionItems, waitForExecution } from './executions';
import { productionWebhookUrl, purchaseExecution, TRIGGER_NODE, triggerCheck, withActiveTrigger, type TriggerCheckScope } from './trigger-session';
import { VendorDirect } from './vendor-direct';
import { SANDBOX_SIGNING_SECRET } from '../lib/templates';
import { fail, type Check } from './types';

/**
 * The trigger's options in a running n8n, with workflows/trigger-label-download.json: Events = Item Purchased only,
 * Download Shipping Label into the binary field "label". Each check activates it and deactivates it again.
 */
const WORKFLOW = 'trigger-label-download';
const WEBHOOK_ID = '0e2e0000-0000-4000-8000-000000000004';

const labelCheck = (name: string, run: (scope: TriggerCheckScope) => Promise<string>) => triggerCheck(WORKFLOW, name, run);
const withLabelTrigger = <T>({ ctx }: TriggerCheckScope, use: () => Promise<T>) => withActiveTrigger(ctx, WORKFLOW, WEBHOOK_ID, use);

/** "GET /labels/X.pdf 404", plus " with Authorization" when a header was sent (the API token must never be). */
const labelDownloads = (log: RequestLogEntry[]) =>
	log.filter((r) => r.path.startsWith('/labels/')).map((r) => `${r.method} ${r.path} ${r.status}${r.authorized ? ' with Authorization' : ''}`);

function expectEventFields(item: Record<string, unknown>, expected: Record<string, unknown>): void {
	const seen = Object.fromEntries(Object.keys(expected).map((key) => [key, item[key]]));
	expectEqual(seen, expected, 'event fields of the trigger item');
	if (typeof item.timestamp !== 'string' || item.timestamp === '') fail(`the trigger item has no timestamp: ${JSON.stringify(item)}`);
}

export const triggerOptionChecks: Check[] = [
	labelCheck(
		'trigger Download Shipping Label: item_purchased runs the workflow with the label PDF as binary data and the event fields (label fetched without the token)',
		async (scope) => {
			const { ctx, api, admin } = scope;
			return await withLabelTrigger(scope, async () => {
				await admin.clearRequests();
				const { sku, pdfUrl, execution, item, binary } = await purchaseExecution(scope, { vendor_sku: 'SBX-1006' });
				expectEqual(pdfUrl, `${ctx.target.baseUrl}/labels/${sku}.pdf`, "the event's pdf_url (a label the sandbox serves)");
				expectEqual(execution.status, 'success', `status of execution #${execution.id}`);
				expectEventFields(item, { event: 'item_purchased', vendor_sku: 'SBX-1006', sku, pdf_url: pdfUrl, label_error: undefined });
				const label = binary?.label;
				if (!label) fail(`the trigger item has no binary field "label": binary ${JSON.stringify(binary)}, json ${JSON.stringify(item)}`);
				expectEqual([label.mimeType, label.fileName], ['application/pdf', `${sku}.pdf`], 'mimeType and fileName of the label');
				const stored = await binaryBytes(api, label);
				expectEqual(labelDownloads(await admin.requests()), [`GET /labels/${sku}.pdf 200`], 'label downloads n8n made');
				const served = Buffer.from(await (await fetch(pdfUrl)).arrayBuffer());
				if (stored.length === 0 || !stored.equals(served)) {
					fail(`the label n8n stored (${stored.length} bytes: ${JSON.stringify(stored.subarray(0, 12).toString('latin1'))}) is not the ${served.length}-byte PDF the sandbox serves`);
				}
				return `binary "label": ${label.fileName}, ${label.mimeType}, ${stored.length} bytes (${label.id ? 'filesystem mode' : 'inline base64'}), equal to the served PDF`;
			});
		},
	),
	labelCheck(
		'trigger Download Shipping Label: a label URL that answers 404 still runs the workflow, with label_error and no binary',
		async (scope) => {
			const { ctx, admin } = scope;
			return await withLabelTrigger(scope, async () => {
				await admin.clearRequests();
				const missing = `${ctx.target.baseUrl}/labels/NO-SUCH-ORDER.pdf`;
				const { sku, execution, item, binary } = await purchaseExecution(scope, { vendor_sku: 'SBX-1008', pdf_url: missing });
				expectEqual(execution.status, 'success', `status of execution #${execution.id}`);
				expectEventFields(item, { event: 'item_purchased', vendor_sku: 'SBX-1008', sku, pdf_url: missing });
				if (!/could not be downloaded.*404/.test(String(item.label_error))) fail(`label_error does not say the download failed with 404: ${JSON.stringify(item.label_error)}`);
				if (binary && Object.keys(binary).length) fail(`the item carries binary data although the label was not found: ${JSON.stringify(binary)}`);
				expectEqual(labelDownloads(await admin.requests()), ['GET /labels/NO-SUCH-ORDER.pdf 404'], 'label downloads n8n made');
				return `label_error: ${String(item.label_error)}`;
			});
		},
	),
	labelCheck(
		'trigger Events filter: a workflow for Item Purchased only answers an address_creation delivery 200 and starts no execution',
		async (scope) => {
			const { api, admin, id } = scope;
			return await withLabelTrigger(scope, async () => {
				const earlier = new Set((await api.executions(id)).map((e) => e.id));
				const address = await admin.emitEvent({ operation: 'address_creation', envelope: 'notification_event', data: { id: '301', errors: [] } });
				expectEqual(address.status, 200, "n8n's answer to the address_creation delivery");
				// Sent after the address event: once its execution exists, the address event had every chance to start one.
				const { sku } = await purchaseExecution(scope, { vendor_sku: 'SBX-1000' });
				const started = (await api.executions(id)).filter((e) => !earlier.has(e.id));
				expectEqual(
					started.map((e) => executionItems(e, TRIGGER_NODE).map((json) => `${String(json.event)} ${String(json.sku ?? json.id)}`)),
					[[`item_purchased ${sku}`]],
					'executions started by the two deliveries (address_creation, then item_purchased)',
				);
				return `address_creation answered ${address.status}, no execution; item_purchased ${sku} ran`;
			});
		},
	),
	labelCheck(
		// n8n saves the workflow's static data as a whole, and saves the activation's only after the node's create
		// returned. An event that reaches the webhook in between runs on the static data from before the activation;
		// when it ends after that save (its label download is slow), the trigger must not have n8n save that copy,
		// or what activation remembered about the vendor's previous URL is gone.
		"trigger Download Shipping Label: an event delivered while n8n is still activating (slow PATCH, slow label) runs, and deactivating gives the vendor its previous URL back",
		async ({ ctx, api, admin, id }) => {
			const vendor = new VendorDirect(ctx.target);
			const previous = { webhook_url: 'https://hooks.example.com/before-early-event', webhook_enabled: true };
			await admin.setSigningSecret(SANDBOX_SIGNING_SECRET);
			await vendor.patch(previous);
			await admin.addFault({ kind: 'latency', ms: 4000, method: 'PATCH', pathPrefix: '/v1/vendor' });
			await admin.addFault({ kind: 'latency', ms: 7000, method: 'GET', pathPrefix: '/labels/' });
			const url = productionWebhookUrl(ctx, WEBHOOK_ID);
			// 1.x answers the public API once activation is done, 2.x at once: either way, not awaited yet.
			const activation = api.activate(id);
			let deactivated = false;
			try {
				let delivered: Awaited<ReturnType<typeof admin.emitEvent>> | undefined;
				const deadline = Date.now() + 20_000;
				while (delivered === undefined && Date.now() < deadline) {
					// n8n serves the webhook path before calling create: 404 until then.
					const attempt = await admin.emitEvent({ operation: 'item_purchased', data: { vendor_sku: 'SBX-1006' }, url });
					if (attempt.status === 200) delivered = attempt;
					else await new Promise((r) => setTimeout(r, 100));
				}
				await activation;
				if (!delivered) fail(`n8n never accepted the early delivery at ${url}`);
				const sku = (delivered.body as { body?: { data?: { sku?: string } } }).body?.data?.sku;
				const { item, binary } = await waitForExecution(api, id, TRIGGER_NODE, (json) => json.sku === sku, `execution for the early event ${sku}`);
				if (!binary?.label) fail(`the early event's item has no label: ${JSON.stringify(item)}`);
				await vendor.waitFor((p) => p.webhook_url === url && p.preferences.webhook_enabled, 'activated: webhook_url is the production URL');
				await api.deactivate(id);
				deactivated = true;
				await vendor.waitFor(
					(p) => p.webhook_url === previous.webhook_url && p.preferences.webhook_enabled,
					`deactivated after the early event: webhook_url back to ${previous.webhook_url}`,
				);
				return `event ${sku} accepted while n8n was activating, ran with its label; previous URL restored`;
			} finally {
				// Later checks must not meet this check's faults or its active workflow.
				await admin.clearFaults();
				if (!deactivated) await activation.then(async () => await api.deactivate(id)).catch(() => undefined);
			}
		},
	),
];
