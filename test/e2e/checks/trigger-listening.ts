import { SANDBOX_SIGNING_SECRET } from '../lib/templates';
import { expectEqual } from './expect';
import { executionItems, waitForExecution } from './executions';
import { productionWebhookUrl, purchaseExecution, TRIGGER_NODE, triggerCheck, withActiveTrigger, type TriggerCheckScope } from './trigger-session';
import { fail, type Check, type CheckContext } from './types';
import { VendorDirect, type VendorProfile } from './vendor-direct';

/**
 * "Listen for test event" (the editor's button, through n8n's REST API) and repeated deliveries in a running n8n,
 * with workflows/trigger-test-listening.json (all events). Every check leaves the workflow inactive and the
 * vendor on PREVIOUS.
 */
const WORKFLOW = 'trigger-test-listening';
const WEBHOOK_ID = '0e2e0000-0000-4000-8000-000000000005';
const PREVIOUS = { webhook_url: 'https://hooks.example.com/vendor-own', webhook_enabled: true };

const vendor = (ctx: CheckContext) => new VendorDirect(ctx.target);
const testUrl = (ctx: CheckContext) => `${ctx.server!.server.url}/webhook-test/${WEBHOOK_ID}/webhook`;
const isPrevious = (p: VendorProfile) => p.webhook_url === PREVIOUS.webhook_url && p.preferences.webhook_enabled === PREVIOUS.webhook_enabled;
const isListening = (ctx: CheckContext) => (p: VendorProfile) => !!p.webhook_url?.startsWith(`${testUrl(ctx)}?`) && p.preferences.webhook_enabled;

/** A check on the test-listening workflow that starts with the vendor on PREVIOUS and deliveries signed. */
function listeningCheck(name: string, run: (scope: TriggerCheckScope) => Promise<string>): Check {
	return triggerCheck(WORKFLOW, name, async (scope) => {
		await scope.admin.setSigningSecret(SANDBOX_SIGNING_SECRET);
		await vendor(scope.ctx).patch(PREVIOUS);
		return await run(scope);
	});
}

/** Activates the workflow and waits for the vendor to call it, then deactivates it and waits for PREVIOUS back. */
async function activateThenDeactivate(ctx: CheckContext, when: string): Promise<VendorProfile> {
	const api = ctx.server!.api;
	const id = ctx.workflowId(WORKFLOW);
	await api.activate(id);
	const production = productionWebhookUrl(ctx, WEBHOOK_ID);
	await vendor(ctx).waitFor((p) => p.webhook_url === production && p.preferences.webhook_enabled, `activated ${when}: webhook_url ${production}`);
	await api.deactivate(id);
	return await vendor(ctx).waitFor(isPrevious, `deactivated ${when}: webhook_url back to ${PREVIOUS.webhook_url}, not the test URL`);
}

async function listen(ctx: CheckContext): Promise<void> {
	const answer = await ctx.server!.api.listenForTestEvent(ctx.workflowId(WORKFLOW), TRIGGER_NODE);
	if (!answer.waitingForWebhook) fail(`n8n did not start listening for a test event: ${answer.status} ${answer.message}`);
	await vendor(ctx).waitFor(isListening(ctx), `vendor webhook_url on the test URL ${testUrl(ctx)}?…`);
}

export const triggerListeningChecks: Check[] = [
	listeningCheck(
		"trigger test listening: refused while the workflow is active (the message says what to do); production keeps the vendor's URL and its events",
		async (scope) => {
			const { ctx, api, id } = scope;
			return await withActiveTrigger(ctx, WORKFLOW, WEBHOOK_ID, async () => {
				const answer = await api.listenForTestEvent(id, TRIGGER_NODE);
				if (answer.waitingForWebhook) fail('n8n listens for a test event although the workflow is active');
				if (!/Cannot listen for a test event while this workflow is active.*Deactivate the workflow/.test(answer.message)) {
					fail(`the refusal does not say what to do: ${answer.status} ${answer.message}`);
				}
				const production = productionWebhookUrl(ctx, WEBHOOK_ID);
				const profile = await vendor(ctx).get();
				expectEqual([profile.webhook_url, profile.preferences.webhook_enabled], [production, true], 'vendor webhook after the refused listening');
				const { sku, execution } = await purchaseExecution(scope, { vendor_sku: 'SBX-1000' }, 'production execution');
				expectEqual(execution.mode, 'webhook', `mode of execution #${execution.id}`);
				return `refused (${answer.status}): "${answer.message.slice(0, 110)}…"; production event ${sku} ran`;
			});
		},
	),
	listeningCheck(
		"trigger test listening: with the workflow inactive the test URL takes over, a test event runs, and the vendor's own URL is back (also after stopping by hand)",
		async ({ ctx, api, admin, id }) => {
			await listen(ctx);
			const delivery = await admin.emitEvent({ operation: 'address_creation', data: { id: '301', errors: [] } });
			if (delivery.status !== 200) fail(`the test URL answered the delivery with ${delivery.status ?? delivery.error}`);
			// n8n stops listening after the first test execution: the vendor's own URL comes back.
			await vendor(ctx).waitFor(isPrevious, `after the test event, webhook_url back to ${PREVIOUS.webhook_url}`);
			await listen(ctx);
			await api.stopListening(id);
			await vendor(ctx).waitFor(isPrevious, `after stopping by hand, webhook_url back to ${PREVIOUS.webhook_url}`);
			return `test delivery to ${delivery.url.split('?')[0]}?… answered ${delivery.status}; previous URL restored twice`;
		},
	),
	listeningCheck(
		"trigger test listening: activated and deactivated while listening, the vendor ends on its own URL (not the test URL)",
		async ({ ctx, api, id }) => {
			await listen(ctx);
			await activateThenDeactivate(ctx, 'while listening');
			await api.stopListening(id);
			// Give the listener's clean-up time to (wrongly) touch the vendor, then look again.
			await new Promise((r) => setTimeout(r, 1500));
			const after = await vendor(ctx).get();
			if (!isPrevious(after)) fail(`after listening stopped the vendor has ${JSON.stringify(after)}, expected ${JSON.stringify(PREVIOUS)}`);
			return `vendor on ${after.webhook_url} (enabled ${after.preferences.webhook_enabled})`;
		},
	),
	listeningCheck(
		"trigger test listening: n8n restarting while listening (the session is forgotten, the test URL stays at the vendor): activating and deactivating afterwards puts the vendor's own URL back",
		async ({ ctx }) => {
			await listen(ctx);
			await ctx.server!.restart();
			const stranded = await vendor(ctx).get();
			if (!isListening(ctx)(stranded)) fail(`after the restart the vendor should still call the forgotten test URL, it has ${JSON.stringify(stranded)}`);
			const after = await activateThenDeactivate(ctx, 'after the restart');
			return `restart left ${stranded.webhook_url?.split('?')[0]}?…; activation + deactivation restored ${after.webhook_url}`;
		},
	),
	listeningCheck(
		'trigger Ignore Repeated Deliveries: the sandbox delivers the same event twice, one execution starts (the repeat is answered 200)',
		async (scope) => {
			const { ctx, api, admin, id } = scope;
			return await withActiveTrigger(ctx, WORKFLOW, WEBHOOK_ID, async () => {
				const sku = `TRR-REPEAT-${ctx.version.replace(/\W/g, '')}`;
				const data = { vendor_sku: 'SBX-1000', sku, timestamp: new Date().toISOString() };
				const first = await admin.emitEvent({ operation: 'item_purchased', data });
				const again = await admin.emitEvent({ operation: 'item_purchased', data });
				if (first.rawBody !== again.rawBody) fail('the sandbox did not send the same delivery twice');
				expectEqual([first.status, again.status], [200, 200], "n8n's answers to the two deliveries");
				// Sent after the repeat: once its execution exists, the repeat had every chance to start one.
				await purchaseExecution(scope, { vendor_sku: 'SBX-1000' }, 'execution of the later event');
				await waitForExecution(api, id, TRIGGER_NODE, (json) => json.sku === sku, `execution for ${sku}`);
				const started = (await api.executions(id)).filter((e) => executionItems(e, TRIGGER_NODE).some((json) => json.sku === sku));
				expectEqual(started.length, 1, `executions started for ${sku}`);
				return `two identical deliveries answered ${first.status}/${again.status}, one execution (#${started[0].id})`;
			});
		},
	),
];
