/**
 * `npm run dev` (after `npm run build`): the sandbox with demo data and real n8n 2.x with this package,
 * a ready credential "Consignment Vendor (sandbox)" and the example workflows. Ctrl-C stops both.
 *
 * The package is loaded as an installed community package (packed and installed into
 * .dev/n8n/.n8n/nodes on every start), not through N8N_CUSTOM_EXTENSIONS: node types are then
 * `n8n-nodes-consignment-vendor.*`, the same names users, the examples and the e2e suite use, so an
 * example exported from the dev editor can be committed as is. Restart `npm run dev` to pick up changes.
 *
 * Env: DEV_OWNER_EMAIL / DEV_OWNER_PASSWORD (login, defaults printed), N8N_PORT (default 5678),
 * N8N_LISTEN_ADDRESS (default 127.0.0.1),
 * SANDBOX_PORT (default 4010; 0 = any free port), E2E_CACHE_DIR (where n8n is installed).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { ensureInstalled, N8N_RELEASES } from './install';
import { killAllGroups } from './lib/children';
import { N8nApi, type OwnerAccount } from './lib/n8n-api';
import { importCredentials, importWorkflows, n8nCli, type N8nInstance } from './lib/n8n-cli';
import { n8nEnv } from './lib/n8n-env';
import { N8nServer } from './lib/n8n-server';
import { installPackedPackage, packPackage, REPO_DIR } from './lib/package-loader';
import { freePort } from './lib/ports';
import { startSigningSandbox } from './lib/dev-sandbox';
import type { SandboxProcess } from './lib/sandbox-process';
import { exampleSources, instantiate } from './lib/templates';
import { sandboxTarget } from './target';

const DEV_DIR = join(REPO_DIR, '.dev');
/** Examples reference the credential by this id, so they work in the dev instance without re-selecting it. */
export const DEV_CREDENTIAL = { id: 'cvSandboxCredential', name: 'Consignment Vendor (sandbox)' };

const owner: OwnerAccount = {
	email: process.env.DEV_OWNER_EMAIL ?? 'dev@example.com',
	// Only ever guards a local instance bound to 127.0.0.1; override with DEV_OWNER_PASSWORD.
	password: process.env.DEV_OWNER_PASSWORD ?? 'Dev-n8n-1234',
	firstName: 'Dev',
	lastName: 'Owner',
};

const log = (m: string) => console.log(`[dev] ${m}`);

async function main(): Promise<void> {
	const release = N8N_RELEASES.find((r) => r.major === '2')!;
	log(`making sure n8n ${release.version} is installed (first time: a few minutes)`);
	const [install] = await ensureInstalled([release], log);

	const sandbox: SandboxProcess = await startSigningSandbox(Number(process.env.SANDBOX_PORT ?? 4010));
	const target = sandboxTarget(sandbox);

	const userFolder = join(DEV_DIR, 'n8n');
	mkdirSync(userFolder, { recursive: true });
	const port = Number(process.env.N8N_PORT ?? 5678);
	const instance: N8nInstance = {
		version: release.version,
		nodeDir: install.nodeDir,
		n8nBin: install.n8nBin,
		env: n8nEnv({
			nodeDir: install.nodeDir,
			userFolder,
			port,
			brokerPort: await freePort(),
			// 127.0.0.1 unless told otherwise (e.g. 0.0.0.0 inside a container whose port is forwarded)
			extra: process.env.N8N_LISTEN_ADDRESS ? { N8N_LISTEN_ADDRESS: process.env.N8N_LISTEN_ADDRESS } : {},
		}),
	};

	await installPackedPackage(await packPackage(), userFolder, install.nodeDir);
	const imported = await importDevData(instance, target);

	log('starting n8n');
	const server = await N8nServer.start(instance, join(DEV_DIR, 'n8n.log'));
	const api = new N8nApi(server.url);
	const account = await api.setupOwnerOrLogin(owner).catch((error: Error) => {
		throw new Error(`${error.message}\nThe dev instance has another owner: log in with it, or delete .dev/ to start over.`);
	});

	console.log(
		[
			'',
			`  n8n editor   ${server.url}   (log: .dev/n8n.log)`,
			`  login        ${owner.email} / ${process.env.DEV_OWNER_PASSWORD ? '(DEV_OWNER_PASSWORD)' : owner.password}${account === 'created' ? '  (owner created)' : ''}`,
			`  sandbox      ${sandbox.baseUrl}   (admin: ${sandbox.baseUrl}/__sandbox/state)`,
			`  credential   "${DEV_CREDENTIAL.name}"`,
			`  examples     ${imported.length ? imported.join(', ') : '(none new)'}`,
			`  events       npm run dev:event -- item_purchased   (after "Execute step" on an open Consignment Vendor Trigger;`,
			`               also successful_item_upload, invalid_item_upload, address_creation; deliveries are signed)`,
			'',
			'  Ctrl-C stops n8n and the sandbox.',
			'',
		].join('\n'),
	);

	await new Promise<void>((resolve) => {
		const stop = () => resolve();
		process.once('SIGINT', stop);
		process.once('SIGTERM', stop);
	});
	log('stopping');
	await server.stop();
	await sandbox.stop();
}

/**
 * The credential is re-imported on every start (the sandbox URL may differ; the id stays), the examples
 * only when the instance does not have them yet, so edits made in the editor survive a restart.
 */
async function importDevData(instance: N8nInstance, target: ReturnType<typeof sandboxTarget>): Promise<string[]> {
	const importDir = join(DEV_DIR, 'import');
	const files = instantiate(target, importDir, { sources: exampleSources(), defaultCredential: DEV_CREDENTIAL });
	await importCredentials(instance, files.credentialsFile);
	if (!Object.keys(files.ids).length) return [];
	const listed = await n8nCli(instance, ['list:workflow', '--onlyId']);
	const existing = new Set(listed.stdout.split('\n').map((l) => l.trim()));
	const fresh = Object.entries(files.ids).filter(([, id]) => !existing.has(id));
	if (!fresh.length) return [];
	const freshDir = join(importDir, 'new-workflows');
	mkdirSync(freshDir, { recursive: true });
	for (const [name] of fresh) {
		copyFileSync(join(files.workflowsDir, `${name}.json`), join(freshDir, `${name}.json`));
	}
	await importWorkflows(instance, freshDir);
	return fresh.map(([name]) => name);
}

main().catch((error: Error) => {
	console.error(`[dev] ${error.message}`);
	killAllGroups();
	process.exit(1);
});
