// Entry point of the trigger harness: `const host = await startTriggerHost({ credentials })`, then
// host.activate() / restart() / deactivate() / listenForTestEvent() / stopListening(), with the sandbox
// delivering to host.productionUrl or host.testUrl over real HTTP. See README.md beside this file.
import type { INodeParameters, IWorkflowExecuteAdditionalData } from 'n8n-workflow';

import { CredentialStore, SANDBOX_CREDENTIAL_ID } from '../credential-store';
import { HarnessCredentialTypes } from '../credential-types';
import { HarnessCredentialsHelper } from '../credentials-helper';
import { n8nUrls } from '../n8n-runtime';
import { HarnessNodeTypes } from '../node-types';
import { loadPackage } from '../package-loader';
import { TriggerHost } from './trigger-host';

export { TriggerHost, TRIGGER_TYPE, type ReceivedCall, type TriggerHostOptions } from './trigger-host';
export type { WebhookMethodCall } from './n8n-lifecycle';

export interface StartTriggerHostOptions {
	credentials: CredentialStore;
	/** Default: the sandbox credential's id ('cred-1'). */
	credentialId?: string;
	parameters?: INodeParameters;
	nodeName?: string;
	workflowId?: string;
	webhookId?: string | null;
}

function unavailable(name: string): () => never {
	return () => {
		throw new Error(`${name} is not available in the trigger harness`);
	};
}

/**
 * The additionalData n8n's cli builds (WorkflowExecuteAdditionalData.getBase), reduced to what hook and
 * webhook contexts use: the credentials helper and the URLs, with the webhook bases pointing at the host.
 */
function additionalDataWith(
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

export async function startTriggerHost(options: StartTriggerHostOptions): Promise<TriggerHost> {
	const loaded = await loadPackage();
	const nodeTypes = new HarnessNodeTypes(loaded, []);
	const credentialsHelper = new HarnessCredentialsHelper(options.credentials, new HarnessCredentialTypes(loaded));
	const credentialId = options.credentialId ?? SANDBOX_CREDENTIAL_ID;
	const stored = options.credentials.get(credentialId);
	return await TriggerHost.start({
		nodeTypes,
		additionalData: (urls) => additionalDataWith(credentialsHelper, urls),
		credential: { id: stored.id, name: stored.name },
		parameters: options.parameters,
		nodeName: options.nodeName,
		workflowId: options.workflowId,
		webhookId: options.webhookId,
	});
}

export { CredentialStore };
