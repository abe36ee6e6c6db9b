// How n8n's cli drives a webhook node's webhookMethods, re-done with n8n-core's real HookContext
// (packages/cli: WebhookService.createWebhookIfNotExists/deleteWebhook/runWebhookMethod,
// ActiveWorkflowManager.addWebhooks/clearWebhooks, TestWebhooks.needsWebhook/deactivateWebhooks; 1.x and 2.x):
// - every method call gets a new HookContext(workflow, node, additionalData, mode, activation, webhookData);
// - "create if not exists" = checkExists, then create only when it returned false;
// - production activation/start: mode 'trigger', activation 'activate' | 'init' | 'update';
//   deactivation: mode 'internal', activation 'update';
// - test listening: create with mode 'manual', activation 'manual', webhookData.isTest = true;
//   stop: delete with mode 'internal', activation 'update', same webhookData.
import { HookContext } from 'n8n-core';
import type {
	INode,
	IWebhookData,
	IWorkflowExecuteAdditionalData,
	WebhookSetupMethodNames,
	Workflow,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';

export interface WebhookMethodCall {
	method: WebhookSetupMethodNames;
	mode: WorkflowExecuteMode;
	activation: WorkflowActivateMode;
	isTest: boolean;
	result: boolean | undefined;
}

export async function runWebhookMethod(
	method: WebhookSetupMethodNames,
	workflow: Workflow,
	webhookData: IWebhookData,
	mode: WorkflowExecuteMode,
	activation: WorkflowActivateMode,
	log?: WebhookMethodCall[],
): Promise<boolean | undefined> {
	const node = workflow.getNode(webhookData.node) as INode;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const fn = nodeType.webhookMethods?.[webhookData.webhookDescription.name]?.[method];
	if (fn === undefined) return undefined;
	const context = new HookContext(workflow, node, webhookData.workflowExecuteAdditionalData, mode, activation, webhookData);
	const result = (await fn.call(context)) as boolean | undefined;
	log?.push({ method, mode, activation, isTest: webhookData.isTest === true, result });
	return result;
}

export async function createWebhookIfNotExists(
	workflow: Workflow,
	webhookData: IWebhookData,
	mode: WorkflowExecuteMode,
	activation: WorkflowActivateMode,
	log?: WebhookMethodCall[],
): Promise<void> {
	const exists = await runWebhookMethod('checkExists', workflow, webhookData, mode, activation, log);
	if (!exists) await runWebhookMethod('create', workflow, webhookData, mode, activation, log);
}

/** The IWebhookData n8n builds for the node's webhook description (WebhookService.getNodeWebhooks). */
export function webhookDataFor(
	workflow: Workflow,
	node: INode,
	path: string,
	additionalData: IWorkflowExecuteAdditionalData,
	isTest: boolean,
): IWebhookData {
	const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const description = nodeType.description.webhooks?.[0];
	if (description === undefined) throw new Error(`${node.type} declares no webhook`);
	return {
		httpMethod: description.httpMethod as IWebhookData['httpMethod'],
		node: node.name,
		path,
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: undefined,
		isTest,
	};
}

/** WorkflowStaticDataService.saveStaticData: persisted only when n8n's observable object says it changed. */
export function takeChangedStaticData(workflow: Workflow): object | undefined {
	const staticData = workflow.staticData as { __dataChanged?: boolean };
	if (staticData.__dataChanged !== true) return undefined;
	staticData.__dataChanged = false;
	// What a database column round trip keeps (the __dataChanged flag is not enumerable).
	return JSON.parse(JSON.stringify(workflow.staticData)) as object;
}
