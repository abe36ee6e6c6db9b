// The IWorkflowExecuteAdditionalData the trigger hosts hand n8n-core's contexts (hook, webhook and poll).
import type { IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from '../credentials-helper';
import { n8nUrls } from '../n8n-runtime';

function unavailable(name: string): () => never {
	return () => {
		throw new Error(`${name} is not available in the trigger harness`);
	};
}

/**
 * The additionalData n8n's cli builds (WorkflowExecuteAdditionalData.getBase), reduced to what hook and
 * webhook contexts use: the credentials helper and the URLs, with the webhook bases pointing at the host.
 */
export function additionalDataWith(
	credentialsHelper: HarnessCredentialsHelper,
	urls: { webhookBaseUrl: string; webhookTestBaseUrl: string },
): IWorkflowExecuteAdditionalData {
	return {
		...n8nUrls,
		...urls,
		credentialsHelper,
		variables: {},
		currentNodeExecutionIndex: 0,
		executeWorkflow: unavailable('executeWorkflow'),
		getRunExecutionData: unavailable('getRunExecutionData'),
		getRuntimeCredential: unavailable('getRuntimeCredential'),
		startRunnerTask: unavailable('startRunnerTask'),
		logAiEvent: () => undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
}
