import type { RequestLogEntry } from '../../sandbox/types';
import { apiRequests, describeRequests, expectEqual, expectSuccess, outputOf } from './expect';
import { fail, type Check } from './types';
import { workflowCheck } from './workflow-check';

const SEED_APPROVED = 26;

/** `200`, or `429 rateLimit` for a request an injected fault answered. */
const statusOf = (r: RequestLogEntry) => `${r.status}${r.fault ? ` ${r.fault}` : ''}`;

/**
 * n8n 1.x never lets a node see the headers of a failed response (its NodeApiError drops the wrapped request
 * error), so Retry-After is unknown there and the node backs off from 1 s instead (nodes/shared/transport/retryRules.ts).
 */
const seesRetryAfter = (version: string) => Number(version.split('.')[0]) >= 2;
const RATE_LIMIT_BACKOFF_MS = 1000;

/** The repeat came no earlier than it should have (sandbox clock: real time within one check). */
function expectWaited(first: RequestLogEntry, retry: RequestLogEntry, atLeastMs: number, why: string): number {
	const waited = Date.parse(retry.at) - Date.parse(first.at);
	if (waited < atLeastMs) fail(`the request was repeated ${waited} ms after the 429, before ${atLeastMs} ms (${why})`);
	return waited;
}

/** The wait a version must keep after a 429 that asks for `retryAfterSeconds`, and why. */
function expectedWait(version: string, retryAfterSeconds: number): { ms: number; why: string } {
	return seesRetryAfter(version)
		? { ms: retryAfterSeconds * 1000, why: `Retry-After: ${retryAfterSeconds}` }
		: { ms: RATE_LIMIT_BACKOFF_MS, why: 'n8n 1.x hides Retry-After from nodes; the rate-limit backoff starts at 1 s' };
}

/** A 429 from the service in real n8n: waited out and the same request sent once more. */
export const retryChecks: Check[] = [
	workflowCheck({
		name: 'retry: a 429 (Retry-After 1) on page 2 of a Return All is waited out and that page asked again; every item once',
		workflow: 'item-get-all-rate-limited',
		setup: (admin) => admin.addFault({ kind: 'rateLimit', method: 'GET', pathPrefix: '/v1/items', skip: 1, retryAfterSeconds: 1 }),
		verify({ outcome, requests, version }) {
			expectSuccess(outcome, 'item-get-all-rate-limited');
			const items = outputOf(outcome, 'Get approved items');
			expectEqual(items.length, SEED_APPROVED, 'items returned');
			expectEqual(new Set(items.map((i) => i.vendor_sku)).size, SEED_APPROVED, 'distinct vendor_sku values (no page twice, none skipped)');
			const pages = apiRequests(requests);
			expectEqual(pages.map(statusOf), ['200', '429 rateLimit', '200', '200'], `list requests (${describeRequests(pages)})`);
			if (!pages[1].query.after) fail(`the 429 did not hit a later page: ${describeRequests(pages)}`);
			expectEqual(pages[2].query, pages[1].query, 'query of the repeated page (same cursor, filter and page size)');
			const wait = expectedWait(version, 1);
			const waited = expectWaited(pages[1], pages[2], wait.ms, wait.why);
			return `${items.length} items in 3 pages; page 2 answered 429 and was repeated after ${waited} ms (${wait.why})`;
		},
	}),
	workflowCheck({
		name: 'retry: item Create whose POST is answered 429 (Retry-After 2) is sent once more and succeeds; every item created once',
		workflow: 'item-create-rate-limited',
		setup: (admin) => admin.addFault({ kind: 'rateLimit', method: 'POST', pathPrefix: '/v1/consignments/', retryAfterSeconds: 2 }),
		verify({ outcome, requests, state, version }) {
			expectSuccess(outcome, 'item-create-rate-limited');
			const out = outputOf(outcome, 'Create items');
			expectEqual(out.map((i) => [i.vendor_sku, i.status, i.error]), [1, 2, 3].map((n) => [`E2E-429-${n}`, 'submitted', undefined]), 'output items');
			const posts = apiRequests(requests).filter((r) => r.method === 'POST');
			expectEqual(
				posts.map((r) => `${r.path} ${(r.body as { items?: unknown[] })?.items?.length} items -> ${statusOf(r)}`),
				['/v1/consignments/cons_12345/items 3 items -> 429 rateLimit', '/v1/consignments/cons_12345/items 3 items -> 200'],
				'creation requests',
			);
			expectEqual(posts[1].body, posts[0].body, 'body of the repeated POST');
			const wait = expectedWait(version, 2);
			const waited = expectWaited(posts[0], posts[1], wait.ms, wait.why);
			const created = state.items.filter((i) => i.vendor_sku.startsWith('E2E-429-')).map((i) => i.vendor_sku).sort();
			expectEqual(created, ['E2E-429-1', 'E2E-429-2', 'E2E-429-3'], 'items the sandbox created');
			return `POST 429, repeated after ${waited} ms (${wait.why}), 200; 3 items created once`;
		},
	}),
];
