/**
 * n8n in queue mode on one machine: a main (editor, API, activation), workers (`n8n worker`, they run the
 * executions) and a webhook processor (`n8n webhook`, receives production webhooks and queues them), all on the
 * same Postgres, Redis, encryption key and user folder (the package is installed there once), with the settings
 * n8n 3.0 makes the default (N8N_3_DEFAULTS).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { nodeBinary } from '../install/npm-env';
import { trackGroup, untrackGroup } from '../lib/children';
import { killGroup, tail } from '../lib/exec';
import type { N8nInstance } from '../lib/n8n-cli';
import { n8nEnv } from '../lib/n8n-env';
import { freePort } from '../lib/ports';
import type { QueueServices } from './services';

/**
 * What n8n 3.0 changes for a queue-mode instance, set explicitly on 2.x (n8n's "v3.0 breaking changes"; the
 * breaking-changes rules in 2.41's own source): manual executions (the editor's runs, Fetch Test Event, test
 * listening) always run on workers; binary data in the database (queue mode's default since 2.x, the in-memory mode
 * gone); unverified community packages off.
 */
export const N8N_3_DEFAULTS: NodeJS.ProcessEnv = {
	OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	N8N_DEFAULT_BINARY_DATA_MODE: 'database',
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
};

const READY_TIMEOUT_MS = 180_000;

export type Role = 'main' | 'worker' | 'webhook';

/** One n8n process of the cluster, ready when its health URL answers 200. */
export class N8nProcess {
	private child?: ChildProcess;
	private exited = true;

	constructor(
		readonly name: string,
		readonly role: Role,
		readonly instance: N8nInstance,
		readonly logFile: string,
		/** `/healthz` of the process (workers: their health-check port). */
		readonly healthUrl: string,
	) {}

	get url(): string {
		return `http://127.0.0.1:${this.instance.env.N8N_PORT}`;
	}

	async start(): Promise<void> {
		const command = this.role === 'main' ? ['start'] : this.role === 'worker' ? ['worker', '--concurrency=5'] : ['webhook'];
		const log = createWriteStream(this.logFile, { flags: 'a' });
		const child = spawn(nodeBinary(this.instance.nodeDir), [this.instance.n8nBin, ...command], {
			env: this.instance.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true, // own group: stopping it also ends the task runner it spawns
		});
		this.child = child;
		this.exited = false;
		trackGroup(child.pid);
		child.on('exit', () => {
			this.exited = true;
		});
		child.stdout!.pipe(log);
		child.stderr!.pipe(log);
		const deadline = Date.now() + READY_TIMEOUT_MS;
		while (Date.now() < deadline) {
			if (this.exited) throw new Error(`${this.name} exited before it was ready:\n${this.logTail()}`);
			try {
				const res = await fetch(this.healthUrl, { signal: AbortSignal.timeout(2000) });
				const restReady = this.role !== 'main' || (await fetch(`${this.url}/rest/settings`, { signal: AbortSignal.timeout(2000) })).status === 200;
				if (res.status === 200 && restReady) return;
			} catch {
				// not listening yet
			}
			await new Promise((r) => setTimeout(r, 250));
		}
		throw new Error(`${this.name} was not ready after ${READY_TIMEOUT_MS / 1000} s:\n${this.logTail()}`);
	}

	async stop(): Promise<void> {
		const child = this.child;
		if (!child || this.exited) return;
		const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
		killGroup(child.pid, 'SIGTERM');
		const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 20_000);
		await gone;
		clearTimeout(timer);
		killGroup(child.pid, 'SIGKILL');
		untrackGroup(child.pid);
	}

	log(): string {
		try {
			return readFileSync(this.logFile, 'utf8');
		} catch {
			return '';
		}
	}

	logTail(lines = 30): string {
		return tail(this.log(), lines);
	}
}

export interface Cluster {
	main: N8nProcess;
	workers: N8nProcess[];
	webhook: N8nProcess;
	/** The env of a CLI command (import) against the cluster's database. */
	cli: N8nInstance;
	all(): N8nProcess[];
	stop(): Promise<void>;
}

/** Builds the processes' environments (nothing is started). */
export async function defineCluster(
	base: { version: string; nodeDir: string; n8nBin: string },
	userFolder: string,
	logDir: string,
	services: QueueServices,
	workerCount = 2,
	/** The main's (editor's) port; any free one by default. */
	mainPort?: number,
): Promise<Cluster> {
	const webhookPort = await freePort();
	const shared: NodeJS.ProcessEnv = {
		...N8N_3_DEFAULTS,
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: services.postgres.host,
		DB_POSTGRESDB_PORT: String(services.postgres.port),
		DB_POSTGRESDB_DATABASE: services.postgres.database,
		DB_POSTGRESDB_USER: services.postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: services.redis.host,
		QUEUE_BULL_REDIS_PORT: String(services.redis.port),
		// Production webhook URLs (what the trigger registers with the vendor) point at the webhook processor; test
		// webhook URLs are the main's own (N8N_EDITOR_BASE_URL), the only process serving /webhook-test/.
		WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/`,
	};
	const instanceFor = async (port: number, extra: NodeJS.ProcessEnv): Promise<N8nInstance> => ({
		...base,
		env: n8nEnv({ nodeDir: base.nodeDir, userFolder, port, brokerPort: await freePort(), extra: { ...shared, ...extra } }),
	});
	mainPort ??= await freePort();
	const main = new N8nProcess(
		'main',
		'main',
		await instanceFor(mainPort, { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' }),
		join(logDir, 'main.log'),
		`http://127.0.0.1:${mainPort}/healthz/readiness`,
	);
	const workers: N8nProcess[] = [];
	for (let i = 1; i <= workerCount; i++) {
		const healthPort = await freePort();
		workers.push(
			new N8nProcess(
				`worker ${i}`,
				'worker',
				await instanceFor(await freePort(), { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(healthPort) }),
				join(logDir, `worker-${i}.log`),
				`http://127.0.0.1:${healthPort}/healthz`,
			),
		);
	}
	const webhook = new N8nProcess('webhook processor', 'webhook', await instanceFor(webhookPort, {}), join(logDir, 'webhook.log'), `http://127.0.0.1:${webhookPort}/healthz`);
	const cli = await instanceFor(await freePort(), {});
	const all = () => [main, ...workers, webhook];
	return {
		main,
		workers,
		webhook,
		cli,
		all,
		stop: async () => {
			await Promise.all(all().map(async (p) => await p.stop().catch(() => undefined)));
		},
	};
}
