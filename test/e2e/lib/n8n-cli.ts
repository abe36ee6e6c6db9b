import { readFileSync } from 'node:fs';

import { nodeBinary } from '../install/npm-env';
import { exec, tail, type ExecResult } from './exec';

/** How to run one n8n install against one user folder: the same env for every CLI command and the server. */
export interface N8nInstance {
	/** e.g. "2.41.1" */
	version: string;
	nodeDir: string;
	n8nBin: string;
	env: NodeJS.ProcessEnv;
}

export interface OutputItem {
	json: Record<string, unknown>;
	binary?: Record<string, { data?: string; fileName?: string; mimeType?: string; fileSize?: string; id?: string }>;
	pairedItem?: unknown;
}

export interface RunData {
	[node: string]: Array<{
		data?: { main?: Array<Array<OutputItem> | null> };
		error?: { message?: string; description?: string };
		executionStatus?: string;
		/** A node's execution hints (its notices in the editor's output pane). */
		hints?: Array<{ message?: string }>;
	}>;
}

export interface ExecuteOutcome {
	/** The run n8n printed finished with no error (see executeWorkflow for the exit code). */
	ok: boolean;
	/** n8n printed a run that could be read (false: the verdict came from the exit code alone). */
	printedRun?: boolean;
	/** `data.resultData` of the run n8n printed; undefined when it printed none (e.g. a crash before running). */
	runData?: RunData;
	error?: { message?: string; description?: string; node?: { name?: string } };
	ms: number;
	/** The end of n8n's output, for failure messages. */
	log: string;
}

const CLI_TIMEOUT_MS = 180_000;

export async function n8nCli(instance: N8nInstance, args: string[], timeoutMs = CLI_TIMEOUT_MS, stdoutToFile = false): Promise<ExecResult> {
	return exec(nodeBinary(instance.nodeDir), [instance.n8nBin, ...args], { env: instance.env, timeoutMs, stdoutToFile });
}

async function mustSucceed(instance: N8nInstance, args: string[]): Promise<ExecResult> {
	const result = await n8nCli(instance, args);
	if (result.code !== 0) {
		throw new Error(`n8n ${args.join(' ')} exited ${result.code ?? result.signal}:\n${tail(result.stdout + result.stderr)}`);
	}
	return result;
}

export async function importCredentials(instance: N8nInstance, file: string): Promise<void> {
	await mustSucceed(instance, ['import:credentials', `--input=${file}`]);
}

/** Imports every *.json in `dir` (each file one workflow). */
export async function importWorkflows(instance: N8nInstance, dir: string): Promise<void> {
	await mustSucceed(instance, ['import:workflow', '--separate', `--input=${dir}`]);
}

/**
 * `n8n execute --id --rawOutput`. n8n prints log lines, then the run as pretty-printed JSON starting at a
 * line that is exactly `{` and ending at the next line that is exactly `}` (on failure it logs the same
 * JSON after "Execution error:" and exits 1).
 */
export async function executeWorkflow(instance: N8nInstance, workflowId: string, timeoutMs = CLI_TIMEOUT_MS): Promise<ExecuteOutcome> {
	// Its run printed to a file: on a pipe, CI once read a run cut off in the middle (n8n exits right after printing).
	const result = await n8nCli(instance, ['execute', `--id=${workflowId}`, '--rawOutput'], timeoutMs, true);
	const run = parseRun(result.stdout) ?? parseRun(result.stderr);
	const resultData = run?.data?.resultData;
	// n8n 1.x's `execute` sometimes exits non-zero after printing a finished, error-free run (its shutdown, not
	// the workflow, failed). The printed run is the workflow's result, so it decides; with no run printed the
	// exit code does.
	const finished = run !== undefined && (run.finished === true || run.status === 'success');
	return {
		ok: !resultData?.error && (finished || result.code === 0),
		printedRun: run !== undefined,
		runData: resultData?.runData,
		error: resultData?.error,
		ms: result.ms,
		log: tail(result.stdout + result.stderr, 25),
	};
}

interface PrintedRun {
	finished?: boolean;
	status?: string;
	data?: { resultData?: { runData?: RunData; error?: ExecuteOutcome['error'] } };
}

export function parseRun(output: string): PrintedRun | undefined {
	const lines = output.split('\n');
	const start = lines.findIndex((line) => line === '{');
	if (start < 0) return undefined;
	const end = lines.findIndex((line, i) => i > start && line === '}');
	if (end < 0) return undefined;
	const printed = lines.slice(start, end + 1);
	try {
		return JSON.parse(printed.join('\n')) as PrintedRun;
	} catch {
		// A log line of another part of n8n (its task runner, a warning) may land inside the printed run, on a loaded
		// machine: every line of pretty-printed JSON between its braces is indented, so an unindented one is not its.
		try {
			return JSON.parse(printed.filter((line, i) => i === 0 || i === printed.length - 1 || line.startsWith(' ')).join('\n')) as PrintedRun;
		} catch {
			return undefined;
		}
	}
}

export interface ExportedCredential {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/** Decrypted credentials as stored by n8n: shows whether the token field was written and kept. */
export async function exportCredentials(instance: N8nInstance, outputFile: string): Promise<ExportedCredential[]> {
	await mustSucceed(instance, ['export:credentials', '--all', '--decrypted', `--output=${outputFile}`]);
	return JSON.parse(readFileSync(outputFile, 'utf8')) as ExportedCredential[];
}
