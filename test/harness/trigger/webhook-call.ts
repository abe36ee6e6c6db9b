// One webhook request, handled the way n8n's executeWebhook (packages/cli/src/webhooks/webhook-helpers.ts,
// 1.x and 2.x) handles it up to the point where it starts the execution:
// body read/parsed as n8n does -> the node's webhook() with n8n-core's real WebhookContext -> the answer:
// - webhook() threw: 500 "Workflow Webhook Error: Workflow could not be started!";
// - noWebhookResponse: the node answered itself, nothing more is written;
// - no workflowData: 200 with webhookResponse, or n8n's default {"message":"Webhook call received"};
// - workflowData and responseMode 'onReceived': 200 {"message":"Workflow was started"} (or webhookResponse)
//   and the execution starts with that data. The harness records the data instead of running the workflow.
import { WebhookContext } from 'n8n-core';
import type {
	INode,
	INodeExecutionData,
	INodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import type { ShimRequest, ShimResponse } from './express-shim';
import { prepareRequestBody, UnprocessableBodyError, UnsupportedBodyError } from './request-body';

export interface WebhookCallResult {
	/** HTTP status the caller got (0 when nothing was written). */
	status: number;
	/** True when n8n would have started an execution. */
	started: boolean;
	/** The trigger's output items (workflowData[0]) when started. */
	items?: INodeExecutionData[];
	/** What webhook() threw, if it threw. */
	error?: Error;
}

export interface WebhookCallInput {
	workflow: Workflow;
	node: INode;
	nodeType: INodeType;
	webhookData: IWebhookData;
	additionalData: IWorkflowExecuteAdditionalData;
	mode: WorkflowExecuteMode;
	req: ShimRequest;
	res: ShimResponse;
}

function answered(res: ShimResponse): boolean {
	return res.headersSent || res.writableEnded;
}

export async function handleWebhookCall(input: WebhookCallInput): Promise<WebhookCallResult> {
	const { workflow, node, nodeType, webhookData, mode, req, res } = input;
	if (webhookData.webhookDescription.responseMode !== 'onReceived') {
		throw new Error('The trigger harness answers like n8n\'s "onReceived" response mode only');
	}

	try {
		await prepareRequestBody(req, node.typeVersion);
	} catch (error) {
		if (error instanceof UnprocessableBodyError || error instanceof UnsupportedBodyError) {
			res.status(error.status).json({ code: error.status, message: error.message });
			return { status: error.status, started: false };
		}
		throw error;
	}

	const additionalData: IWorkflowExecuteAdditionalData = {
		...input.additionalData,
		httpRequest: req as never,
		httpResponse: res as never,
	};
	const context = new WebhookContext(workflow, node, additionalData, mode, webhookData, [], null);

	let result: IWebhookResponseData;
	try {
		if (nodeType.webhook === undefined) throw new Error(`${node.type} has no webhook()`);
		result = await nodeType.webhook.call(context);
	} catch (error) {
		if (!answered(res)) {
			res.status(500).json({ code: 500, message: 'Workflow Webhook Error: Workflow could not be started!' });
		}
		return { status: 500, started: false, error: error as Error };
	}

	const started = result.workflowData !== undefined;
	if (result.noWebhookResponse !== true && !answered(res)) {
		const fallback = started ? { message: 'Workflow was started' } : { message: 'Webhook call received' };
		res.status(200).json(result.webhookResponse ?? fallback);
	}
	return {
		status: answered(res) ? res.statusCode : 0,
		started,
		items: started ? (result.workflowData?.[0] ?? []) : undefined,
	};
}
