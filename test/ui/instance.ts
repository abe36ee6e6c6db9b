import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import type { InstalledN8n } from '../e2e/install';
import { startSigningSandbox } from '../e2e/lib/dev-sandbox';
import { N8nApi, type OwnerAccount } from '../e2e/lib/n8n-api';
import { importCredentials, importWorkflows, type N8nInstance } from '../e2e/lib/n8n-cli';
import { n8nEnv } from '../e2e/lib/n8n-env';
import { N8nServer } from '../e2e/lib/n8n-server';
import { installPackedPackage, packPackage } from '../e2e/lib/package-loader';
import { freePort } from '../e2e/lib/ports';
import type { SandboxProcess } from '../e2e/lib/sandbox-process';
import { exampleSources, instantiate } from '../e2e/lib/templates';
import { sandboxTarget } from '../e2e/target';

export const UI_OWNER: OwnerAccount = { email: 'ui@example.com', password: 'Ui-check-1234', firstName: 'Ui', lastName: 'Check' };
/** As `npm run dev` names it: the examples point at it. */
const CREDENTIAL = { id: 'cvSandboxCredential', name: 'Consignment Vendor (sandbox)' };

export interface EditorInstance {
	server: N8nServer;
	sandbox: SandboxProcess;
	workflowIds: Record<string, string>;
	stop(): Promise<void>;
}

/** What `npm run dev` gives a new user, from a fresh folder on free ports: the package, the credential, the examples. */
export async function startEditorInstance(install: InstalledN8n, workDir: string): Promise<EditorInstance> {
	rmSync(workDir, { recursive: true, force: true });
	const userFolder = join(workDir, 'n8n');
	mkdirSync(userFolder, { recursive: true });
	const sandbox = await startSigningSandbox(0);
	try {
		const instance: N8nInstance = {
			version: install.release.version,
			nodeDir: install.nodeDir,
			n8nBin: install.n8nBin,
			env: n8nEnv({ nodeDir: install.nodeDir, userFolder, port: await freePort(), brokerPort: await freePort() }),
		};
		await installPackedPackage(await packPackage(), userFolder, install.nodeDir);
		const files = instantiate(sandboxTarget(sandbox), join(workDir, 'import'), { sources: exampleSources(), defaultCredential: CREDENTIAL });
		await importCredentials(instance, files.credentialsFile);
		await importWorkflows(instance, files.workflowsDir);
		const server = await N8nServer.start(instance, join(workDir, 'n8n.log'));
		await new N8nApi(server.url).setupOwnerOrLogin(UI_OWNER);
		return {
			server,
			sandbox,
			workflowIds: files.ids,
			stop: async () => {
				await server.stop();
				await sandbox.stop();
			},
		};
	} catch (error) {
		await sandbox.stop();
		throw error;
	}
}
