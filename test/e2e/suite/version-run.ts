import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { SandboxAdmin } from '../../sandbox/admin-client';
import type { Check, CheckContext, ServerHandle } from '../checks/types';
import type { InstalledN8n } from '../install';
import { n8nEnv } from '../lib/n8n-env';
import { executeWorkflow, exportCredentials, importCredentials, importWorkflows, type N8nInstance } from '../lib/n8n-cli';
import { installPackedPackage, REPO_DIR } from '../lib/package-loader';
import { freePort } from '../lib/ports';
import type { CheckResult } from '../lib/report';
import { runCheck } from '../lib/run-check';
import { startSandboxProcess, type SandboxProcess } from '../lib/sandbox-process';
import { instantiate, suiteSources, type StoredCredential, type WorkflowSource } from '../lib/templates';
import { externalTarget, sandboxTarget, type ApiTarget } from '../target';
import { startServerHandle } from './server-phase';

export interface VersionRunOptions {
	install: InstalledN8n;
	tarball: string;
	checks: Check[];
	/** Called with each result as soon as it exists (live progress). */
	onResult(result: CheckResult): void;
	/** A run of the same version under other n8n settings (its own folder, its name in the report). */
	variant?: RunVariant;
	/**
	 * Part of a version's checks run in an n8n and a sandbox of their own, beside the rest (see suite/shards.ts): its
	 * folder's suffix and the name its setup steps carry. The report's version label stays the version's.
	 */
	shard?: string;
}

export interface RunVariant {
	/** Short name: the work folder's suffix and the report's version label (`2.41.1 <name>`). */
	name: string;
	/** n8n settings on top of the suite's own (lib/n8n-env.ts), for every n8n process of the run. */
	env: NodeJS.ProcessEnv;
	/** The API the credential points at, from the one the suite would use (e.g. the sandbox by another host name). */
	target?(target: ApiTarget): ApiTarget;
	/** Workflows imported besides the suite's own. */
	sources?: WorkflowSource[];
	/** Credentials imported besides the suite's own (for the variant's workflows), given the run's target. */
	credentials?(target: ApiTarget): StoredCredential[];
}

/**
 * One n8n version, from a fresh user folder: load the packed package, import the credential and workflows
 * with n8n's CLI, run the CLI checks with `n8n execute`, then the server checks in a running `n8n start`.
 * Setup steps are reported as checks too, so a broken install shows up as failures, never as silence.
 */
export async function runVersion(options: VersionRunOptions): Promise<CheckResult[]> {
	const { install } = options;
	const version = install.release.version;
	const { variant } = options;
	const label = variant ? `${version} ${variant.name}` : version;
	const results: CheckResult[] = [];
	const record = (result: CheckResult) => {
		const r = { ...result, version: label };
		results.push(r);
		options.onResult(r);
	};
	const step = async (stepName: string, fn: () => Promise<string>): Promise<boolean> => {
		const name = options.shard ? stepName.replace(/^setup:/, `setup (${options.shard} instance):`) : stepName;
		const started = Date.now();
		try {
			record({ version, name, ok: true, detail: await fn(), ms: Date.now() - started });
			return true;
		} catch (error) {
			record({ version, name, ok: false, detail: (error as Error).message, ms: Date.now() - started });
			return false;
		}
	};
	const notRun = (reason: string) => {
		for (const check of options.checks) record({ version, name: check.name, ok: false, detail: `not run: ${reason}`, ms: 0 });
	};

	const workDir = join(REPO_DIR, '.e2e-work', `n8n-${version}${variant ? `-${variant.name}` : ''}${options.shard ? `-${options.shard}` : ''}`);
	rmSync(workDir, { recursive: true, force: true });
	const userFolder = join(workDir, 'user');
	mkdirSync(userFolder, { recursive: true });

	let sandbox: SandboxProcess | undefined;
	let server: ServerHandle | undefined;
	try {
		let target: ApiTarget | undefined = externalTarget();
		if (!target) {
			const ok = await step('setup: sandbox starts (npm run sandbox, SANDBOX_PORT=0)', async () => {
				sandbox = await startSandboxProcess(0);
				return sandbox.baseUrl;
			});
			if (!ok || !sandbox) return (notRun('the sandbox did not start'), results);
			target = sandboxTarget(sandbox);
		}
		if (variant?.target) target = variant.target(target);
		const admin = target.sandboxUrl ? new SandboxAdmin(target.sandboxUrl) : undefined;
		const instance: N8nInstance = {
			version,
			nodeDir: install.nodeDir,
			n8nBin: install.n8nBin,
			env: n8nEnv({ nodeDir: install.nodeDir, userFolder, port: await freePort(), brokerPort: await freePort(), extra: variant?.env }),
		};

		let ids: Record<string, string> = {};
		const loaded =
			(await step('setup: packed package installs into <N8N_USER_FOLDER>/.n8n/nodes', async () => {
				const dir = await installPackedPackage(options.tarball, userFolder, install.nodeDir);
				return dir.slice(REPO_DIR.length + 1);
			})) &&
			(await step('setup: n8n import:credentials and import:workflow', async () => {
				const files = instantiate(target, join(workDir, 'import'), {
					sources: [...suiteSources(), ...(variant?.sources ?? [])],
					extraCredentials: variant?.credentials?.(target),
				});
				ids = files.ids;
				await importCredentials(instance, files.credentialsFile);
				await importWorkflows(instance, files.workflowsDir);
				return `${Object.keys(ids).length} workflows`;
			}));
		if (!loaded) return (notRun('setup failed'), results);

		let exportCount = 0;
		const ctx: CheckContext = {
			version,
			target,
			admin,
			instance,
			workflowId: (name) => {
				const id = ids[name];
				if (!id) throw new Error(`no workflow file test/e2e/workflows/${name}.json`);
				return id;
			},
			execute: (name) => executeWorkflow(instance, ctx.workflowId(name)),
			exportCredentials: () => exportCredentials(instance, join(workDir, `credentials-export-${++exportCount}.json`)),
		};

		for (const check of options.checks.filter((c) => c.phase === 'cli')) record(await runCheck(check, ctx));

		const serverChecks = options.checks.filter((c) => c.phase === 'server');
		if (serverChecks.length) {
			const started = await step('setup: n8n start is ready, owner and API key created', async () => {
				server = await startServerHandle(instance, join(workDir, 'n8n-start.log'));
				return server.server.url;
			});
			if (!started || !server) {
				for (const check of serverChecks) record({ version, name: check.name, ok: false, detail: 'not run: n8n start failed', ms: 0 });
			} else {
				ctx.server = server;
				for (const check of serverChecks) record(await runCheck(check, ctx));
			}
		}
		return results;
	} finally {
		await server?.server.stop();
		await sandbox?.stop();
	}
}
