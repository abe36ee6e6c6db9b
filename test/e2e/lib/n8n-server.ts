import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';

import { nodeBinary } from '../install/npm-env';
import { trackGroup, untrackGroup } from './children';
import { killGroup, tail } from './exec';
import type { N8nInstance } from './n8n-cli';

const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;

/** A running `n8n start`, ready when /healthz/readiness and the REST API (/rest/settings) answer 200. */
export class N8nServer {
	private exited = false;

	private constructor(
		readonly url: string,
		private readonly child: ChildProcess,
		private readonly logFile: string,
	) {
		trackGroup(child.pid);
		child.on('exit', () => {
			this.exited = true;
		});
	}

	static async start(instance: N8nInstance, logFile: string): Promise<N8nServer> {
		const url = `http://127.0.0.1:${instance.env.N8N_PORT}`;
		const log = createWriteStream(logFile, { flags: 'a' });
		const child = spawn(nodeBinary(instance.nodeDir), [instance.n8nBin, 'start'], {
			env: instance.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true, // own group: stop() also ends the task runner n8n spawns
		});
		child.stdout!.pipe(log);
		child.stderr!.pipe(log);
		const server = new N8nServer(url, child, logFile);
		try {
			await server.waitUntilReady();
		} catch (error) {
			await server.stop();
			throw error;
		}
		return server;
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	/** The end of the server's log, for failure messages. */
	logTail(lines = 30): string {
		try {
			return tail(readFileSync(this.logFile, 'utf8'), lines);
		} catch {
			return '';
		}
	}

	private async waitUntilReady(): Promise<void> {
		const deadline = Date.now() + READY_TIMEOUT_MS;
		while (Date.now() < deadline) {
			if (this.exited) throw new Error(`n8n start exited before it was ready:\n${this.logTail()}`);
			try {
				// readiness turns 200 when the database is up, a moment before the REST controllers are mounted
				const ready = await fetch(`${this.url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
				const settings = await fetch(`${this.url}/rest/settings`, { signal: AbortSignal.timeout(2000) });
				if (ready.status === 200 && settings.status === 200) return;
			} catch {
				// not listening yet
			}
			await new Promise((r) => setTimeout(r, 250));
		}
		throw new Error(`n8n start was not ready after ${READY_TIMEOUT_MS / 1000} s:\n${this.logTail()}`);
	}

	/** SIGTERM (n8n shuts down gracefully, e.g. deregisters webhooks only on deactivation), then SIGKILL. */
	async stop(): Promise<void> {
		if (this.exited) return;
		const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		killGroup(this.child.pid, 'SIGTERM');
		const timer = setTimeout(() => killGroup(this.child.pid, 'SIGKILL'), STOP_TIMEOUT_MS);
		await gone;
		clearTimeout(timer);
		// The task runner lives in the same process group; make sure nothing of it is left.
		killGroup(this.child.pid, 'SIGKILL');
		untrackGroup(this.child.pid);
	}
}
