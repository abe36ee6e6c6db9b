/**
 * Which webhook URLs belong to this trigger node.
 *
 * n8n builds a node's production and test URLs from different bases around the same node-specific
 * tail (`<webhookId>/webhook`, or `<workflowId>/<node name>/webhook` for nodes without a webhookId);
 * see n8n-workflow's NodeHelpers.getNodeWebhookPath. Two URLs ending in that tail are the same node's
 * production and test URLs.
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

/**
 * True when `otherUrl` is this same node's other webhook URL (its test URL when `ownUrl` is the
 * production one, and the reverse).
 */
export function isSameNodesOtherUrl(context: IHookFunctions, ownUrl: string, otherUrl: string): boolean {
	if (otherUrl === ownUrl) return false;
	const tail = nodeUrlTail(context);
	return ownUrl.endsWith(tail) && otherUrl.endsWith(tail);
}

/** n8n runs checkExists/create/delete with activation mode 'manual' for test listening only. */
export function isTestRegistration(context: IHookFunctions): boolean {
	return context.getActivationMode() === 'manual';
}
