import { createHmac } from 'node:crypto';

import { contractColumnsRow } from '../../integration/item-input';
import { sendWhileDatabaseNotReady } from '../lib/database-not-ready';
import { SANDBOX_SIGNING_SECRET } from '../lib/templates';
import { expectEqual } from './expect';
import { executionItems, waitForExecution } from './executions';
import { emitPurchase, productionWebhookUrl, purchaseExecution, TRIGGER_NODE, triggerCheck, type TriggerCheckScope } from './trigger-session';
import { callWebhook } from './webhook-call';
import { fail, type Check, type CheckContext } from './types';
import { VendorDirect } from './vendor-direct';

/** Fixed in workflows/trigger-all-events.json: n8n's production URL is /webhook/<webhookId>/webhook. */
const TRIGGER_WEBHOOK_ID = '0e2e0000-0000-4000-8000-000000000001';
/** What the vendor pointed at before the trigger took over; deactivation must put it back. */
const PREVIOUS = { webhook_url: 'https://hooks.example.com/previous', webhook_enabled: false };

const productionUrl = (ctx: CheckContext) => productionWebhookUrl(ctx, TRIGGER_WEBHOOK_ID);
const vendor = (ctx: CheckContext) => new VendorDirect(ctx.target);
const isOurs = (ctx: CheckContext) => (p: { webhook_url: string | null; preferences: { webhook_enabled: boolean } }) =>
	p.webhook_url === productionUrl(ctx) && p.preferences.webhook_enabled;
const isPrevious = (p: { webhook_url: string | null; preferences: { webhook_enabled: boolean } }) =>
	p.webhook_url === PREVIOUS.webhook_url && p.preferences.webhook_enabled === PREVIOUS.webhook_enabled;

function sign(body: string, secret: string): string {
	return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

async function postToTrigger(ctx: CheckContext, body: string, signature?: string): Promise<number> {
	const { status } = await sendWhileDatabaseNotReady(async () => {
		const res = await fetch(productionUrl(ctx), {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...(signature ? { 'x-trr-signature': signature } : {}) },
			body,
		});
		return { status: res.status, text: await res.text() };
	});
	return status;
}

/** The checks share workflows/trigger-all-events.json, activated by the first and deactivated near the end. */
const allEventsCheck = (name: string, run: (scope: TriggerCheckScope) => Promise<string>) => triggerCheck('trigger-all-events', name, run);

export const triggerChecks: Check[] = [
	allEventsCheck(
		"trigger: activated through the public API (no UI), the vendor's webhook URL becomes n8n's production URL",
		async ({ ctx, api, admin, id }) => {
			await admin.reset();
			await admin.setSigningSecret(SANDBOX_SIGNING_SECRET);
			await vendor(ctx).patch(PREVIOUS);
			await api.activate(id);
			await api.activate(ctx.workflowId('webhook-create-item'));
			await api.activate(ctx.workflowId('webhook-create-address'));
			const profile = await vendor(ctx).waitFor(isOurs(ctx), `webhook_url ${productionUrl(ctx)} and enabled`);
			return `vendor webhook_url ${profile.webhook_url}, enabled ${profile.preferences.webhook_enabled}`;
		},
	),
	allEventsCheck(
		'trigger: an item created through the node makes the sandbox deliver its event, and the workflow runs with the item_id',
		async ({ ctx, api, admin, id }) => {
			await admin.clearWebhookDeliveries();
			const sku = `E2E-TRIGGER-${ctx.version.replace(/\W/g, '')}`;
			const { status, answer } = await callWebhook(ctx, 'e2e-create-item', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(contractColumnsRow(sku)),
			});
			if (status !== 200) fail(`the item-creating workflow answered ${status}: ${answer.slice(0, 300)}`);
			const created = (await admin.state()).items.find((i) => i.vendor_sku === sku);
			if (!created) fail(`the sandbox has no item ${sku} after the workflow answered ${answer.slice(0, 200)}`);
			const deliveries = await admin.waitForDeliveries(1, 10_000);
			const upload = deliveries.find((d) => d.operation === 'successful_item_upload');
			if (!upload || upload.status !== 200) fail(`no successful_item_upload delivery answered 200: ${JSON.stringify(deliveries.map((d) => [d.operation, d.status, d.error]))}`);
			const { item } = await waitForExecution(
				api,
				id,
				TRIGGER_NODE,
				(json) => json.event === 'successful_item_upload' && json.vendor_sku === sku,
				`trigger execution for ${sku}`,
			);
			if (String(item.item_id) !== String(created.item_id)) fail(`the trigger output item_id ${String(item.item_id)}, the sandbox created ${created.item_id}`);
			return `item ${created.item_id} -> delivery ${upload.status} -> execution with ${JSON.stringify(item).slice(0, 140)}`;
		},
	),
	allEventsCheck(
		'trigger: item_purchased sent through /__sandbox/events runs the workflow with the platform sku',
		async ({ ctx, api, id }) => {
			const { sku } = await emitPurchase(ctx, { vendor_sku: 'SBX-1000' });
			const { item } = await waitForExecution(
				api,
				id,
				TRIGGER_NODE,
				(json) => json.event === 'item_purchased' && json.sku === sku,
				`trigger execution for item_purchased ${sku}`,
			);
			if (item.vendor_sku !== 'SBX-1000') fail(`the trigger output vendor_sku ${String(item.vendor_sku)}, expected SBX-1000`);
			return JSON.stringify(item).slice(0, 160);
		},
	),
	allEventsCheck(
		'trigger: an address created through the node makes the sandbox deliver address_creation (notification_event), and the workflow runs with its id',
		async ({ ctx, api, admin, id: workflowId }) => {
			await admin.clearWebhookDeliveries();
			const address1 = `1 Trigger Way, n8n ${ctx.version}`;
			const { status, answer } = await callWebhook(ctx, 'e2e-create-address', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ address1 }),
			});
			if (status !== 200) fail(`the address-creating workflow answered ${status}: ${answer.slice(0, 300)}`);
			const created = (await admin.state()).addresses.find((a) => a.address1 === address1);
			if (!created?.active) fail(`the sandbox has no active address "${address1}" after the workflow answered ${answer.slice(0, 200)}`);
			const deliveries = await admin.waitForDeliveries(1, 10_000);
			const delivery = deliveries.find((d) => d.operation === 'address_creation');
			if (!delivery || delivery.status !== 200 || delivery.envelope !== 'notification_event') {
				fail(`no address_creation delivery in the notification_event envelope answered 200: ${JSON.stringify(deliveries.map((d) => [d.operation, d.envelope, d.status, d.error]))}`);
			}
			const id = String(created.address_id);
			const { item } = await waitForExecution(
				api,
				workflowId,
				TRIGGER_NODE,
				(json) => json.event === 'address_creation' && String(json.id) === id,
				`trigger execution for address_creation of address ${id}`,
			);
			expectEqual([item.id, item.errors], [id, []], 'id and errors of the address_creation item');
			return `address ${id} -> ${delivery.envelope} delivery ${delivery.status} -> execution with ${JSON.stringify(item).slice(0, 140)}`;
		},
	),
	allEventsCheck(
		'trigger: a forged or missing signature is refused and starts nothing (a correctly signed one does)',
		async ({ ctx, api, id }) => {
			const event = (sku: string) => JSON.stringify({ body: { operation: 'item_purchased', data: { vendor_sku: 'SBX-1000', sku, timestamp: new Date().toISOString(), pdf_url: `https://labels.example.com/${sku}.pdf` } } });
			// Each body is built once and the signature computed over those exact bytes: event() stamps the time,
			// so building it twice can differ by a millisecond and turn a genuine signature into a wrong one.
			const signed = async (body: string, signedBody: string, secret: string) => await postToTrigger(ctx, body, sign(signedBody, secret));
			const forgedBody = event('FORGED-1');
			const forged = await signed(forgedBody, forgedBody, 'not-the-signing-secret');
			const unsigned = await postToTrigger(ctx, event('UNSIGNED-1'));
			const tampered = await signed(event('TAMPERED-1'), event('TAMPERED-0'), SANDBOX_SIGNING_SECRET);
			const genuineBody = event('GENUINE-1');
			const genuine = await signed(genuineBody, genuineBody, SANDBOX_SIGNING_SECRET);
			const statuses = `forged ${forged}, unsigned ${unsigned}, tampered ${tampered}, genuine ${genuine}`;
			if ([forged, unsigned, tampered].some((s) => s < 400)) fail(`a request without a valid signature was accepted: ${statuses}`);
			if (genuine !== 200) fail(`the correctly signed request was not accepted: ${statuses}`);
			// The genuine one was sent last: once its execution exists, the others had every chance to start one.
			await waitForExecution(api, id, TRIGGER_NODE, (json) => json.sku === 'GENUINE-1', 'execution of the correctly signed event');
			const started = (await api.executions(id)).flatMap((e) => executionItems(e, TRIGGER_NODE)).filter((json) => /FORGED|UNSIGNED|TAMPERED/.test(String(json.sku)));
			if (started.length) fail(`refused requests started executions: ${JSON.stringify(started)}`);
			return statuses;
		},
	),
	allEventsCheck(
		'trigger: deactivating through the public API restores the previous webhook URL',
		async ({ ctx, api, id }) => {
			await api.deactivate(id);
			const profile = await vendor(ctx).waitFor(isPrevious, `webhook_url back to ${PREVIOUS.webhook_url}, enabled false`);
			return `vendor webhook_url ${profile.webhook_url}, enabled ${profile.preferences.webhook_enabled}`;
		},
	),
	allEventsCheck(
		'trigger: stays registered across an n8n restart; deactivating after the restart restores the previous URL',
		async (scope) => {
			const { ctx, api, id } = scope;
			await api.activate(id);
			await vendor(ctx).waitFor(isOurs(ctx), 'webhook_url is n8n\'s again after re-activation');
			await ctx.server!.restart();
			await vendor(ctx).waitFor(isOurs(ctx), 'webhook_url still n8n\'s after the restart');
			await purchaseExecution(scope, { vendor_sku: 'SBX-1004' }, 'execution after the restart');
			await api.deactivate(id);
			const profile = await vendor(ctx).waitFor(isPrevious, `webhook_url back to ${PREVIOUS.webhook_url} after restart + deactivation`);
			return `event after restart ran; restored ${profile.webhook_url}`;
		},
	),
];
