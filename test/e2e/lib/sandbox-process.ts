import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

import { trackGroup, untrackGroup } from './children';
import { killGroup } from './exec';
import { REPO_DIR } from './package-loader';

export interface SandboxProcess {
	baseUrl: string;
	authUrl: string;
	clientId: string;
	clientSecret: string;
	stop(): Promise<void>;
}

/**
 * The sandbox as its own process, exactly as `npm run sandbox` starts it (test/sandbox/cli.ts), on a free
 * port: n8n calls it over real HTTP and it calls n8n's webhooks, so it must not share our event loop's fate.
 */
export async function startSandboxProcess(port = 0, stderrLog?: (line: string) => void): Promise<SandboxProcess> {
	const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'test/sandbox/cli.ts'], {
		cwd: REPO_DIR,
		env: { ...process.env, SANDBOX_PORT: String(port), TS_NODE_PROJECT: 'tsconfig.test.json' },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	trackGroup(child.pid);
	child.once('exit', () => untrackGroup(child.pid));
	let stderr = '';
	child.stderr!.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
		stderrLog?.(chunk.toString());
	});
	const line = await firstLine(child, () => stderr);
	let info: Omit<SandboxProcess, 'stop'>;
	try {
		info = JSON.parse(line) as Omit<SandboxProcess, 'stop'>;
	} catch {
		killGroup(child.pid);
		throw new Error(`the sandbox printed "${line}" instead of its JSON line`);
	}
	for (const key of ['baseUrl', 'authUrl', 'clientId', 'clientSecret'] as const) {
		if (typeof info[key] !== 'string') {
			killGroup(child.pid);
			throw new Error(`the sandbox's JSON line lacks ${key}: ${line}`);
		}
	}
	return {
		...info,
		stop: () =>
			new Promise<void>((resolve) => {
				if (child.exitCode !== null || child.signalCode !== null) return resolve();
				child.once('exit', () => resolve());
				killGroup(child.pid, 'SIGTERM');
				setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5000).unref();
			}),
	};
}

function firstLine(child: ChildProcess, stderr: () => string): Promise<string> {
	return new Promise((resolve, reject) => {
		const lines = createInterface({ input: child.stdout! });
		const timer = setTimeout(() => {
			killGroup(child.pid);
			reject(new Error(`the sandbox printed nothing within 60 s:\n${stderr()}`));
		}, 60_000);
		lines.once('line', (line) => {
			clearTimeout(timer);
			resolve(line);
		});
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`the sandbox exited (${code}) before printing its JSON line:\n${stderr()}`));
		});
	});
}
