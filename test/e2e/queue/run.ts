/**
 * `npm run test:e2e:queue`: the packed package in n8n 2.x's queue mode under n8n 3.0's defaults (see
 * test/e2e/README.md, "Queue mode"): Postgres 15 and Redis 7 from Debian (installed when missing), a main, 2 workers
 * and a webhook processor, the sandbox as the vendor API. Results go to E2E_QUEUE_RESULTS_FILE (default .e2e-work/queue-results.json) in the
 * e2e suite's format, so .ci/summarize.js sums them.
 *
 * Env: E2E_SKIP_BUILD=1 (dist/ is fresh), E2E_CACHE_DIR (n8n installs), E2E_ONLY (substring filter on check names).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { N8N_RELEASES } from '../install';
import { exitWith } from '../lib/children';
import { N8nApi } from '../lib/n8n-api';
import { importCredentials, importWorkflows } from '../lib/n8n-cli';
import { installPackedPackage, REPO_DIR } from '../lib/package-loader';
import { buildInstallAndPack } from '../lib/prepare';
import { formatReport, formatResult, writeResults, type CheckResult } from '../lib/report';
import { startSandboxProcess, type SandboxProcess } from '../lib/sandbox-process';
import { instantiate, SANDBOX_SIGNING_SECRET, WORKFLOWS_DIR } from '../lib/templates';
import { sandboxTarget } from '../target';
import { SandboxAdmin } from '../../sandbox/admin-client';
import { ALL_QUEUE_CHECKS } from './check-list';
import type { QueueContext } from './checks';
import { defineCluster, type Cluster } from './cluster';
import { startQueueServices, type QueueServices } from './services';

const QUEUE_WORKFLOWS_DIR = join(__dirname, 'workflows');
const WORK_DIR = join(REPO_DIR, '.e2e-work', 'queue');
const log = (m: string) => console.log(`[e2e:queue] ${m}`);

async function main(): Promise<number> {
	const started = Date.now();
	const release = N8N_RELEASES.find((r) => r.major === '2')!;
	const resultsFile = process.env.E2E_QUEUE_RESULTS_FILE ?? join(REPO_DIR, '.e2e-work', 'queue-results.json');
	const only = process.env.E2E_ONLY;
	const version = `${release.version} queue`;
	const results: CheckResult[] = [];
	const setupFailed = (name: string, error: unknown) =>
		results.push({ version, name: `queue setup: ${name}`, ok: false, detail: (error as Error).message ?? String(error), ms: 0 });

	let sandbox: SandboxProcess | undefined;
	let services: QueueServices | undefined;
	let cluster: Cluster | undefined;
	try {
		const { install, tarball } = await buildInstallAndPack(release, log);

		rmSync(WORK_DIR, { recursive: true, force: true });
		const userFolder = join(WORK_DIR, 'n8n');
		mkdirSync(userFolder, { recursive: true });
		sandbox = await startSandboxProcess(0);
		// At once: Postgres/Redis (maybe an apt-get install first) and the package install are independent.
		const installing = installPackedPackage(tarball, userFolder, install.nodeDir);
		installing.catch(() => undefined); // awaited below; a failure must not go unhandled meanwhile
		services = await startQueueServices(log);
		await installing;
		const target = sandboxTarget(sandbox);
		const admin = new SandboxAdmin(sandbox.baseUrl);

		cluster = await defineCluster(
			{ version: release.version, nodeDir: install.nodeDir, n8nBin: install.n8nBin },
			userFolder,
			WORK_DIR,
			services,
		);
		const files = instantiate(target, join(WORK_DIR, 'import'), {
			sources: [
				{ dir: QUEUE_WORKFLOWS_DIR, prefix: '' },
				{ dir: WORKFLOWS_DIR, prefix: '' },
			],
		});
		// The first command on the empty database runs n8n's migrations.
		await importCredentials(cluster.cli, files.credentialsFile);
		await importWorkflows(cluster.cli, files.workflowsDir);

		log('starting main, 2 workers and a webhook processor');
		const processesStarted = Date.now();
		await cluster.main.start();
		await Promise.all([...cluster.workers, cluster.webhook].map(async (p) => await p.start()));
		log(`cluster ready in ${((Date.now() - processesStarted) / 1000).toFixed(1)} s`);

		const api = new N8nApi(cluster.main.url);
		await api.setupOwnerOrLogin({ email: 'queue@example.com', password: 'Queue-n8n-1234', firstName: 'Queue', lastName: 'Owner' });
		await api.createApiKey('e2e queue');
		await admin.setSigningSecret(SANDBOX_SIGNING_SECRET);

		const ctx: QueueContext = { admin, api, cluster, target, workflowId: (name) => required(files.ids, name) };
		const checks = only ? ALL_QUEUE_CHECKS.filter((c) => c.name.includes(only)) : ALL_QUEUE_CHECKS;
		for (const check of checks) {
			const checkStarted = Date.now();
			let result: CheckResult;
			try {
				const detail = await check.run(ctx);
				result = { version, name: check.name, ok: true, detail, ms: Date.now() - checkStarted };
			} catch (error) {
				result = { version, name: check.name, ok: false, detail: (error as Error).message, ms: Date.now() - checkStarted };
			}
			results.push(result);
			console.log(formatResult(result));
		}
	} catch (error) {
		setupFailed('cluster', error);
		console.error(`[e2e:queue] ${(error as Error).message}`);
		if (cluster) for (const p of cluster.all()) console.error(`--- ${p.name} log tail:\n${p.logTail(15)}`);
	} finally {
		await cluster?.stop().catch(() => undefined);
		await services?.stop().catch(() => undefined);
		await sandbox?.stop().catch(() => undefined);
	}

	const summary = writeResults(resultsFile, results);
	console.log(`\n${formatReport(results, { [version]: Date.now() - started })}`);
	console.log(`\ne2e queue: ${summary.passed} passed, ${summary.failed} failed (results: ${resultsFile}, ${((Date.now() - started) / 1000).toFixed(0)} s)`);
	return summary.failed > 0 || results.length === 0 ? 1 : 0;
}

function required(ids: Record<string, string>, name: string): string {
	const id = ids[name];
	if (!id) throw new Error(`no imported workflow named ${name}`);
	return id;
}

exitWith(main);
