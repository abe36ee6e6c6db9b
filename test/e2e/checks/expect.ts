import type { RequestLogEntry } from '../../sandbox/types';
import type { ExecuteOutcome, OutputItem } from '../lib/n8n-cli';
import { fail } from './types';

export function isTokenRequest(r: RequestLogEntry): boolean {
	return r.method === 'POST' && r.path.endsWith('/api/v1/bearer-token');
}

export function apiRequests(log: RequestLogEntry[]): RequestLogEntry[] {
	return log.filter((r) => !isTokenRequest(r));
}

/** "PATCH /v1/items/50002 200" for each API request that is not a GET, in the order the log has them. */
export function writeRequests(log: RequestLogEntry[]): string[] {
	return apiRequests(log)
		.filter((r) => r.method !== 'GET')
		.map((r) => `${r.method} ${r.path} ${r.status}`);
}

/** "GET /v1/vendor 200, POST /auth/... 200": the request log as a failure message can show it. */
export function describeRequests(log: RequestLogEntry[]): string {
	if (!log.length) return '(no requests)';
	return log
		.map((r) => {
			const query = Object.keys(r.query ?? {}).length ? `?${new URLSearchParams(r.query).toString()}` : '';
			return `${r.method} ${r.path}${query} ${r.status}${r.authorized || isTokenRequest(r) ? '' : ' (no bearer)'}`;
		})
		.join(', ');
}

/** The workflow ran without error; otherwise fails with n8n's error and the end of its output. */
export function expectSuccess(outcome: ExecuteOutcome, workflow: string): void {
	if (outcome.ok) return;
	const error = outcome.error ? `${outcome.error.message ?? ''} ${outcome.error.description ?? ''}`.trim() : 'no error in the run data';
	fail(`workflow ${workflow} failed: ${error}\n--- n8n output (end) ---\n${outcome.log}`);
}

/** Items a node produced on one output (default the first). Fails when the node did not run. */
export function outputOf(outcome: ExecuteOutcome, node: string, output = 0): Array<Record<string, unknown>> {
	return outputItemsOf(outcome, node, output).map((item) => item.json);
}

/** Like outputOf, with binary data and pairing. */
export function outputItemsOf(outcome: ExecuteOutcome, node: string, output = 0): OutputItem[] {
	const runs = outcome.runData?.[node];
	if (!runs?.length) {
		const printed = outcome.printedRun === false ? ' (n8n printed no readable run)' : '';
		fail(`node "${node}" did not run; nodes that ran: ${Object.keys(outcome.runData ?? {}).join(', ') || 'none'}${printed}\n--- n8n output (end) ---\n${outcome.log}`);
	}
	const last = runs[runs.length - 1];
	if (last.error) fail(`node "${node}" failed: ${last.error.message ?? ''} ${last.error.description ?? ''}`);
	return last.data?.main?.[output] ?? [];
}

export function expectEqual<T>(actual: T, expected: T, what: string): void {
	if (JSON.stringify(actual) !== JSON.stringify(expected)) {
		fail(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
	}
}

export function expectCount(log: RequestLogEntry[], predicate: (r: RequestLogEntry) => boolean, expected: number, what: string): void {
	const n = log.filter(predicate).length;
	if (n !== expected) fail(`${what}: expected ${expected}, saw ${n} — requests: ${describeRequests(log)}`);
}
