/**
 * n8n builds a node's production and test URLs from different bases around the same tail (`<webhookId>/webhook`,
 * or `<workflowId>/<node name>/webhook`; NodeHelpers.getNodeWebhookPath): two URLs ending in it are the same node's.
 */
import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const WEBHOOK_NAME = 'default';
export const WEBHOOK_PATH = 'webhook';

/** The URL the service must call for this registration (the test URL while listening for a test event). */
export function ownWebhookUrl(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl(WEBHOOK_NAME);
	if (typeof url !== 'string' || url === '') {
		throw new NodeOperationError(context.getNode(), 'n8n did not provide a webhook URL for this node');
	}
	return url;
}

function nodeUrlTail(context: IHookFunctions): string {
	const node = context.getNode();
	if (node.webhookId) return `/${node.webhookId}/${WEBHOOK_PATH}`;
	const workflowId = context.getWorkflow().id ?? '';
	return `/${workflowId}/${encodeURIComponent(node.name.toLowerCase())}/${WEBHOOK_PATH}`;
}

export function isSameNodesOtherUrl(context: IHookFunctions, ownUrl: string, otherUrl: string): boolean {
	if (otherUrl === ownUrl) return false;
	const tail = nodeUrlTail(context);
	return ownUrl.endsWith(tail) && otherUrl.endsWith(tail);
}

/**
 * n8n runs checkExists and create with activation mode 'manual' for test listening only. Its delete gets
 * 'update' in both cases; there the listening URL's marker tells them apart (listeningUrl.ts).
 */
export function isTestRegistration(context: IHookFunctions): boolean {
	return context.getActivationMode() === 'manual';
}

// n8n gives every new webhook node a UUID webhookId; its production URL then ends in /<webhookId>/webhook.
const TRIGGER_PATH_END = /\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/webhook\/?$/i;

function pathOf(url: string): string | undefined {
	try {
		return new URL(url).pathname;
	} catch {
		return undefined;
	}
}

/**
 * The part of n8n's webhook URLs before the endpoint segment (`https://n8n.example.com/` for
 * `https://n8n.example.com/webhook-test/<id>/webhook`): every production webhook of this n8n starts with it.
 */
function webhookRootOf(context: IHookFunctions, ownUrl: string): string | undefined {
	const tail = nodeUrlTail(context);
	if (!ownUrl.endsWith(tail)) return undefined;
	const base = ownUrl.slice(0, -tail.length);
	const root = base.slice(0, base.lastIndexOf('/') + 1);
	return root.includes('://') && root.endsWith('/') ? root : undefined;
}

type Receiver = 'thisWorkflow' | 'anotherWorkflow';

/**
 * Who receives the vendor's events at `url` (a URL without a listening marker), as far as a URL can tell:
 * - this node's production URL (under any n8n base URL);
 * - another n8n workflow: a Consignment Vendor Trigger's production URL of any n8n (…/<uuid>/webhook), or any
 *   webhook of this n8n;
 * - undefined: the vendor's own receiver, or a URL nothing here recognises.
 */
export function receiverOf(context: IHookFunctions, ownUrl: string, url: string): Receiver | undefined {
	if (url === ownUrl) return undefined;
	if (isSameNodesOtherUrl(context, ownUrl, url)) return 'thisWorkflow';
	if (TRIGGER_PATH_END.test(pathOf(url) ?? '')) return 'anotherWorkflow';
	const root = webhookRootOf(context, ownUrl);
	return root !== undefined && url.startsWith(root) ? 'anotherWorkflow' : undefined;
}
