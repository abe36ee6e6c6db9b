// What n8n-core 2.x needs from its process before WorkflowExecute can run, set up once per test process.
//
// n8n-core resolves its services lazily from the @n8n/di Container (WorkflowExecute and the node contexts
// ask for InstanceSettings, Logger, BinaryDataService, ErrorReporter, TriggersAndPollers, OutboundHttp...).
// They construct themselves from environment-driven config, so nothing has to be registered by hand, with
// one exception: InstanceSettings reads, or creates, `<N8N_USER_FOLDER>/.n8n/config` holding the encryption
// key. Pointing N8N_USER_FOLDER at a throwaway directory keeps tests away from a developer's real ~/.n8n.
// The expression engine stays n8n-workflow's default ('legacy' = tournament, in-process): the VM engine
// needs isolated-vm, which does not build here (see .npmrc). Regular expressions get seconds, not 250 ms
// (regex-engine.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { installPatientRegexEngine } from './regex-engine';

let prepared = false;

export function prepareN8nRuntime(): void {
	if (prepared) return;
	prepared = true;

	if (process.env.N8N_USER_FOLDER === undefined) {
		const folder = mkdtempSync(path.join(tmpdir(), 'n8n-harness-'));
		process.env.N8N_USER_FOLDER = folder;
		// A fresh folder has no key yet; giving one avoids InstanceSettings' "Auto-generating" notice.
		process.env.N8N_ENCRYPTION_KEY ??= randomBytes(24).toString('hex');
		process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
	}
	// n8n's Logger would print every node error to the console; a test reads them from the RunResult.
	// Run with N8N_LOG_LEVEL=debug to see what n8n logs.
	process.env.N8N_LOG_LEVEL ??= 'silent';
	installPatientRegexEngine();
}

/**
 * The URLs n8n's cli puts into IWorkflowExecuteAdditionalData (packages/cli/src/workflow-execute-additional-data.ts,
 * getBase), with the default config: base http://localhost:5678/ and the default endpoint names. Nodes only use
 * them to build links (resume URLs, webhook URLs), never to send requests in these tests.
 */
export const N8N_BASE_URL = 'http://localhost:5678/';

export const n8nUrls = {
	restApiUrl: `${N8N_BASE_URL}rest`,
	instanceBaseUrl: N8N_BASE_URL,
	formBaseUrl: `${N8N_BASE_URL}form`,
	formWaitingBaseUrl: `${N8N_BASE_URL}form-waiting`,
	formTestBaseUrl: `${N8N_BASE_URL}form-test`,
	webhookBaseUrl: `${N8N_BASE_URL}webhook`,
	webhookWaitingBaseUrl: `${N8N_BASE_URL}webhook-waiting`,
	webhookTestBaseUrl: `${N8N_BASE_URL}webhook-test`,
	mcpBaseUrl: `${N8N_BASE_URL}mcp`,
	mcpTestBaseUrl: `${N8N_BASE_URL}mcp-test`,
};
