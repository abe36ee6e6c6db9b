import type { SandboxAdmin } from '../../sandbox/admin-client';
import type { N8nApi } from '../lib/n8n-api';
import { SANDBOX_SIGNING_SECRET } from '../lib/templates';
import { waitForExecution } from './executions';
import { fail, sandboxCheck, sandboxOf, type Check, type CheckContext } from './types';
import { VendorDirect, type VendorProfile } from './vendor-direct';

/** The trigger node's name in every e2e trigger workflow. */
export const TRIGGER_NODE = 'Consignment Vendor Trigger';

/** What a trigger check works with: the running n8n's API, the sandbox, and the id its workflow was imported with. */
export interface TriggerCheckScope {
	ctx: CheckContext;
	api: N8nApi;
	admin: SandboxAdmin;
	id: string;
}

/** A check against a running n8n and the sandbox, about one trigger workflow (its file name, or how to pick it per version). */
export function triggerCheck(
	workflow: string | ((ctx: CheckContext) => string),
	name: string,
	run: (scope: TriggerCheckScope) => Promise<string>,
): Check {
	return sandboxCheck('server', name, async (ctx, admin) => {
		const file = typeof workflow === 'string' ? workflow : workflow(ctx);
		return await run({ ctx, api: ctx.server!.api, admin, id: ctx.workflowId(file) });
	});
}

/** Activates the scope's workflow, runs `use`, and deactivates it again whatever `use` did. */
export async function whileActive<T>({ api, id }: Pick<TriggerCheckScope, 'api' | 'id'>, use: () => Promise<T>): Promise<T> {
	await api.activate(id);
	try {
		return await use();
	} finally {
		await api.deactivate(id).catch(() => undefined);
	}
}

/** n8n's production URL of a Consignment Vendor Trigger: /webhook/<webhookId>/<the trigger's path, `webhook`>. */
export function productionWebhookUrl(ctx: CheckContext, webhookId: string): string {
	return `${ctx.server!.server.url}/webhook/${webhookId}/webhook`;
}

/**
 * Activates a trigger workflow through the public API, waits until the vendor's webhook URL is its production URL,
 * runs `use`, then deactivates it and waits until the vendor's previous webhook configuration is back, also when
 * `use` failed (so later checks find the vendor as they expect). The sandbox signs its deliveries with the suite
 * credential's secret: the trigger refuses unsigned ones.
 */
export async function withActiveTrigger<T>(ctx: CheckContext, workflow: string, webhookId: string, use: () => Promise<T>): Promise<T> {
	const api = ctx.server!.api;
	const vendor = new VendorDirect(ctx.target);
	const id = ctx.workflowId(workflow);
	await sandboxOf(ctx).setSigningSecret(SANDBOX_SIGNING_SECRET);
	const before = await vendor.get();
	await api.activate(id);
	const url = productionWebhookUrl(ctx, webhookId);
	await vendor.waitFor((p) => p.webhook_url === url && p.preferences.webhook_enabled, `${workflow} activated: webhook_url ${url}`);
	const restore = async () => {
		await api.deactivate(id);
		// With no previous URL the trigger switches webhooks off and leaves its URL (the contract documents no way
		// to clear webhook_url); otherwise the previous URL and flag come back exactly.
		const restored = before.webhook_url
			? (p: VendorProfile) => p.webhook_url === before.webhook_url && p.preferences.webhook_enabled === before.preferences.webhook_enabled
			: (p: VendorProfile) => !p.preferences.webhook_enabled;
		await vendor.waitFor(restored, `${workflow} deactivated: previous webhook configuration ${JSON.stringify(before)} restored`);
	};
	let result: T;
	try {
		result = await use();
	} catch (error) {
		// The check's own failure says more than a failed clean-up would.
		await restore().catch(() => undefined);
		throw error;
	}
	await restore();
	return result;
}

export interface EmittedPurchase {
	sku: string;
	pdfUrl: string;
}

/**
 * Has the sandbox send item_purchased to the vendor's webhook URL (`data` as for `/__sandbox/events`); fails unless
 * n8n answered 200. Returns the platform sku and label URL the event carried.
 */
export async function emitPurchase(ctx: CheckContext, data: Record<string, unknown>): Promise<EmittedPurchase> {
	const delivery = await sandboxOf(ctx).emitEvent({ operation: 'item_purchased', data });
	if (delivery.status !== 200) fail(`n8n answered the sandbox's item_purchased delivery with ${delivery.status ?? delivery.error}`);
	const sent = (delivery.body as { body?: { data?: { sku?: string; pdf_url?: string } } }).body?.data;
	if (!sent?.sku || !sent.pdf_url) fail(`the delivery carries no platform sku or pdf_url: ${delivery.rawBody}`);
	return { sku: sent.sku, pdfUrl: sent.pdf_url };
}

/** `emitPurchase`, then the finished execution of the scope's workflow whose trigger item carries that platform sku. */
export async function purchaseExecution(scope: TriggerCheckScope, data: Record<string, unknown>, what = 'execution') {
	const purchase = await emitPurchase(scope.ctx, data);
	const run = await waitForExecution(scope.api, scope.id, TRIGGER_NODE, (json) => json.sku === purchase.sku, `${what} for ${purchase.sku}`);
	return { ...purchase, ...run };
}
