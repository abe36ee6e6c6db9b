import type { Execution, N8nApi } from '../lib/n8n-api';
import { fail } from './types';

/** The items a node produced in a saved execution (first output). */
export function executionItems(execution: Execution, node: string): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData?.runData?.[node] ?? [];
	return runs.flatMap((run) => run.data?.main?.[0] ?? []).map((item) => item.json);
}

/** Polls the workflow's executions until one has a `node` output item matching `match`. */
export async function waitForExecution(
	api: N8nApi,
	workflowId: string,
	node: string,
	match: (json: Record<string, unknown>) => boolean,
	what: string,
	timeoutMs = 20_000,
): Promise<{ execution: Execution; item: Record<string, unknown> }> {
	const deadline = Date.now() + timeoutMs;
	let seen: Execution[] = [];
	for (;;) {
		seen = await api.executions(workflowId);
		for (const execution of seen) {
			const item = executionItems(execution, node).find(match);
			if (item) return { execution, item };
		}
		if (Date.now() > deadline) break;
		await new Promise((r) => setTimeout(r, 500));
	}
	const summary = seen.map((e) => `#${e.id} ${e.status ?? ''} ${JSON.stringify(executionItems(e, node)).slice(0, 160)}`);
	fail(`${what}: no such execution within ${timeoutMs / 1000} s; executions: ${summary.join(' | ') || 'none'}`);
}
