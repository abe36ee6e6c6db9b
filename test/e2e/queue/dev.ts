/**
 * `npm run dev:queue` (after `npm run build`): `npm run dev` in n8n's queue mode, to see the package work in the
 * distributed setup before deploying it: the sandbox with demo data, Postgres and Redis (Debian packages, installed
 * with apt-get when missing, data in a temporary folder that is deleted at the end), and n8n 2.x as a main (editor,
 * activation), 2 workers (executions) and a webhook processor (production webhooks), with the credential
 * "Consignment Vendor (sandbox)" and the example workflows. Ctrl-C stops everything.
 *
 * Every start is a fresh instance (the database lives in the temporary folder). Env: DEV_OWNER_EMAIL /
 * DEV_OWNER_PASSWORD, N8N_PORT (the main's editor, default 5678), SANDBOX_PORT (default 4010; 0 = any free port),
 * E2E_CACHE_DIR.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { ensureInstalled, N8N_RELEASES } from '../install';
import { killAllGroups } from '../lib/children';
import { N8nApi } from '../lib/n8n-api';
import { importCredentials, importWorkflows } from '../lib/n8n-cli';
import { installPackedPackage, packPackage, REPO_DIR } from '../lib/package-loader';
import { startSigningSandbox } from '../lib/dev-sandbox';
import type { SandboxProcess } from '../lib/sandbox-process';
import { exampleSources, instantiate } from '../lib/templates';
import { sandboxTarget } from '../target';
import { defineCluster, type Cluster } from './cluster';
import { startQueueServices, type QueueServices } from './services';

const DEV_DIR = join(REPO_DIR, '.dev', 'queue');
/** The id and name `npm run dev` gives the credential: the examples refer to it. */
const DEV_CREDENTIAL = { id: 'cvSandboxCredential', name: 'Consignment Vendor (sandbox)' };
const owner = {
	email: process.env.DEV_OWNER_EMAIL ?? 'dev@example.com',
	// Only ever guards a local instance bound to 127.0.0.1; override with DEV_OWNER_PASSWORD.
	password: process.env.DEV_OWNER_PASSWORD ?? 'Dev-n8n-1234',
	firstName: 'Dev',
	lastName: 'Owner',
};
const log = (m: string) => console.log(`[dev:queue] ${m}`);

async function main(): Promise<void> {
	const release = N8N_RELEASES.find((r) => r.major === '2')!;
	log(`making sure n8n ${release.version} is installed (first time: a few minutes)`);
	const [install] = await ensureInstalled([release], log);

	let sandbox: SandboxProcess | undefined;
	let services: QueueServices | undefined;
	let cluster: Cluster | undefined;
	try {
		sandbox = await startSigningSandbox(Number(process.env.SANDBOX_PORT ?? 4010));
		const target = sandboxTarget(sandbox);
		services = await startQueueServices(log);

		rmSync(DEV_DIR, { recursive: true, force: true });
		const userFolder = join(DEV_DIR, 'n8n');
		mkdirSync(userFolder, { recursive: true });
		await installPackedPackage(await packPackage(), userFolder, install.nodeDir);
		const mainPort = Number(process.env.N8N_PORT ?? 5678) || undefined; // 0: any free port
		cluster = await defineCluster({ version: release.version, nodeDir: install.nodeDir, n8nBin: install.n8nBin }, userFolder, DEV_DIR, services, 2, mainPort);
		const files = instantiate(target, join(DEV_DIR, 'import'), { sources: exampleSources(), defaultCredential: DEV_CREDENTIAL });
		await importCredentials(cluster.cli, files.credentialsFile);
		if (Object.keys(files.ids).length) await importWorkflows(cluster.cli, files.workflowsDir);

		log('starting the main, 2 workers and the webhook processor');
		await cluster.main.start();
		await Promise.all([...cluster.workers, cluster.webhook].map(async (p) => await p.start()));
		await new N8nApi(cluster.main.url).setupOwnerOrLogin(owner);

		console.log(
			[
				'',
				`  n8n editor         ${cluster.main.url}   (main: editor, API, activation; log .dev/queue/main.log)`,
				`  workers            ${cluster.workers.map((w) => w.healthUrl).join(', ')}   (run the executions)`,
				`  webhook processor  ${cluster.webhook.url}   (production webhooks; WEBHOOK_URL)`,
				`  login              ${owner.email} / ${process.env.DEV_OWNER_PASSWORD ? '(DEV_OWNER_PASSWORD)' : owner.password}`,
				`  sandbox            ${sandbox.baseUrl}   (admin: ${sandbox.baseUrl}/__sandbox/state)`,
				`  Postgres / Redis   127.0.0.1:${services.postgres.port} / 127.0.0.1:${services.redis.port}`,
				`  credential         "${DEV_CREDENTIAL.name}"; examples: ${Object.keys(files.ids).join(', ') || 'none'}`,
				'',
				'  Ctrl-C stops everything (the database is temporary).',
				'',
			].join('\n'),
		);
		await new Promise<void>((resolve) => {
			process.once('SIGINT', () => resolve());
			process.once('SIGTERM', () => resolve());
		});
		log('stopping');
	} finally {
		// At once: Ctrl-C also makes the suite's child tracker end this process shortly (lib/children.ts).
		await Promise.all([cluster?.stop(), services?.stop(), sandbox?.stop()].map(async (p) => await p?.catch(() => undefined)));
	}
}

main().catch((error: Error) => {
	console.error(`[dev:queue] ${error.message}`);
	killAllGroups();
	process.exit(1);
});
