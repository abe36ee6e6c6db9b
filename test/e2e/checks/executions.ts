import type { Execution, ExecutionBinary, ExecutionItem, N8nApi } from '../lib/n8n-api';
import { fail, pollUntil } from './types';

/** The items (json and binary) a node produced in a saved execution (first output). */
export function executionOutputItems(execution: Execution, node: string): ExecutionItem[] {
	const runs = execution.data?.resultData?.runData?.[node] ?? [];
	return runs.flatMap((run) => run.data?.main?.[0] ?? []);
}

/** The json of the items a node produced in a saved execution (first output). */
export function executionItems(execution: Execution, node: string): Array<Record<string, unknown>> {
	return executionOutputItems(execution, node).map((item) => item.json);
}

/** The bytes of a binary field, whichever way the version stores it (inline base64, or by id in filesystem mode). */
export async function binaryBytes(api: N8nApi, binary: ExecutionBinary): Promise<Buffer> {
	if (binary.id) return await api.binaryData(binary.id);
	if (binary.data) return Buffer.from(binary.data, 'base64');
	fail(`the binary field has neither data nor an id: ${JSON.stringify(binary)}`);
}

/** Still going: its stored run data (and, in filesystem mode, its binary data ids) are not final yet. */
const UNSETTLED = new Set(['new', 'running', 'waiting']);

/** The workflow's executions that have finished (their run data is final). */
export async function finishedExecutions(api: N8nApi, workflowId: string): Promise<Execution[]> {
	return (await api.executions(workflowId)).filter((e) => !UNSETTLED.has(e.status ?? ''));
}

/** Polls the workflow's executions until a finished one has a `node` output item matching `match`. */
export async function waitForExecution(
	api: N8nApi,
	workflowId: string,
	node: string,
	match: (json: Record<string, unknown>) => boolean,
	what: string,
	timeoutMs = 20_000,
): Promise<{ execution: Execution; item: Record<string, unknown>; binary?: Record<string, ExecutionBinary> }> {
	const firstMatch = (executions: Execution[]) => {
		for (const execution of executions) {
			const found = executionOutputItems(execution, node).find((candidate) => match(candidate.json));
			if (found) return { execution, item: found.json, binary: found.binary };
		}
		return undefined;
	};
	const seen = await pollUntil(
		() => finishedExecutions(api, workflowId),
		(executions) => firstMatch(executions) !== undefined,
		timeoutMs,
		(executions) => {
			const summary = executions.map((e) => `#${e.id} ${e.status ?? ''} ${JSON.stringify(executionItems(e, node)).slice(0, 160)}`);
			return `${what}: no such execution within ${timeoutMs / 1000} s; finished executions: ${summary.join(' | ') || 'none'}`;
		},
	);
	return firstMatch(seen)!;
}
