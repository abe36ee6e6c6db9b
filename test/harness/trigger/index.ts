// Entry point of the trigger harness: `const host = await startTriggerHost({ credentials })`, then
// host.activate() / restart() / deactivate() / listenForTestEvent() / stopListening(), with the sandbox
// delivering to host.productionUrl or host.testUrl over real HTTP. See README.md beside this file.
import type { INodeParameters } from 'n8n-workflow';

import { CredentialStore, SANDBOX_CREDENTIAL_ID } from '../credential-store';
import { HarnessCredentialTypes } from '../credential-types';
import { HarnessCredentialsHelper } from '../credentials-helper';
import { HarnessNodeTypes } from '../node-types';
import { loadPackage } from '../package-loader';
import { additionalDataWith } from './additional-data';
import { TriggerHost } from './trigger-host';

export { PollHost, startPollHost, ITEM_TRIGGER_TYPE, type N8nLine, type PollHostOptions, type PollRecord, type StartedExecution } from './poll-host';
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
