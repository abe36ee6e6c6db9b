import { spawn, type SpawnOptions } from 'node:child_process';
import { closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { trackGroup, untrackGroup } from './children';

export interface ExecResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	ms: number;
}

export interface ExecOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Kill the process (and its group) after this long; the result then has signal SIGKILL. */
	timeoutMs?: number;
	/** Also append stdout+stderr to this file (install logs stay inspectable after a failure). */
	logFile?: string;
	input?: string;
	/**
	 * stdout goes to a file, read at the end, instead of a pipe: a child that exits right after printing a large
	 * output through an asynchronous stream (n8n's `execute` printing its run) can lose the end of it on a pipe.
	 */
	stdoutToFile?: boolean;
}

/** Runs a command to completion and captures its output. Never throws for a non-zero exit: callers decide. */
export function exec(command: string, args: string[], options: ExecOptions = {}): Promise<ExecResult> {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const outDir = options.stdoutToFile ? mkdtempSync(join(tmpdir(), 'cv-exec-')) : undefined;
		const outFd = outDir !== undefined ? openSync(join(outDir, 'stdout'), 'w') : undefined;
		const spawnOptions: SpawnOptions = {
			cwd: options.cwd,
			env: options.env ?? process.env,
			stdio: [options.input === undefined ? 'ignore' : 'pipe', outFd ?? 'pipe', 'pipe'],
			detached: true, // own process group, so a timeout kills npm's children too
		};
		const child = spawn(command, args, spawnOptions);
		trackGroup(child.pid);
		const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
		if (outFd !== undefined) closeSync(outFd);
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			log?.write(chunk);
		});
		child.stderr!.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
			log?.write(chunk);
		});
		if (options.input !== undefined) {
			child.stdin!.on('error', () => undefined); // a child that exits without reading stdin is not our error
			child.stdin!.end(options.input);
		}
		const timer = options.timeoutMs
			? setTimeout(() => killGroup(child.pid), options.timeoutMs)
			: undefined;
		child.on('error', (error) => {
			if (timer) clearTimeout(timer);
			log?.end();
			reject(error);
		});
		child.on('close', (code, signal) => {
			untrackGroup(child.pid);
			if (timer) clearTimeout(timer);
			if (outDir !== undefined) {
				stdout = readFileSync(join(outDir, 'stdout'), 'utf8');
				log?.write(stdout);
				rmSync(outDir, { recursive: true, force: true });
			}
			log?.end();
			resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
		});
	});
}

/** Kills a detached child's whole process group; ignores a group that is already gone. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
	if (!pid) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// already exited
	}
}

/** The last lines of a long output, for error messages that stay readable. */
export function tail(text: string, lines = 30): string {
	return text.trimEnd().split('\n').slice(-lines).join('\n');
}
