import type { Execution, ExecutionBinary, ExecutionItem, N8nApi } from '../lib/n8n-api';
import { fail } from './types';

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

/** Polls the workflow's executions until a finished one has a `node` output item matching `match`. */
export async function waitForExecution(
	api: N8nApi,
	workflowId: string,
	node: string,
	match: (json: Record<string, unknown>) => boolean,
	what: string,
	timeoutMs = 20_000,
): Promise<{ execution: Execution; item: Record<string, unknown>; binary?: Record<string, ExecutionBinary> }> {
	const deadline = Date.now() + timeoutMs;
	let seen: Execution[] = [];
	for (;;) {
		seen = await api.executions(workflowId);
		for (const execution of seen.filter((e) => !UNSETTLED.has(e.status ?? ''))) {
			const found = executionOutputItems(execution, node).find((candidate) => match(candidate.json));
			if (found) return { execution, item: found.json, binary: found.binary };
		}
		if (Date.now() > deadline) break;
		await new Promise((r) => setTimeout(r, 500));
	}
	const summary = seen.map((e) => `#${e.id} ${e.status ?? ''} ${JSON.stringify(executionItems(e, node)).slice(0, 160)}`);
	fail(`${what}: no such execution within ${timeoutMs / 1000} s; executions: ${summary.join(' | ') || 'none'}`);
}
