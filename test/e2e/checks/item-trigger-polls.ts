// What the Item Trigger's e2e checks share: when a poll of the running n8n read the listings (the sandbox's request
// log), and what its executions announced.
import type { SandboxAdmin } from '../../sandbox/admin-client';
import type { N8nApi } from '../lib/n8n-api';
import { executionItems, finishedExecutions } from './executions';
import { fail, pollUntil, type CheckContext } from './types';

/**
 * The Item Trigger (a polling node) active in a running n8n. n8n 2.x polls at most once a minute (a Custom cron
 * whose seconds field is not a plain number is refused); 1.x refuses only a `*` in the seconds field, so there the
 * workflow polls every 10 seconds (`0,10,20,30,40,50 * * * * *`) and the check takes a minute instead of four.
 */
export const TRIGGER_NODE = 'Consignment Vendor Item Trigger';
export const isV1 = (ctx: CheckContext) => ctx.version.startsWith('1.');
/** Longest wait for the next poll: one interval and a margin. */
export const pollWaitMs = (ctx: CheckContext) => (isV1(ctx) ? 30_000 : 90_000);

/**
 * Polls that finished reading (the sandbox's 52 items: one page per listing). The two listings are read side by side,
 * in no fixed order: a poll is over when both answered. (Counting the approved listing alone once let a check change
 * items while the activation's non-approved page was still on the wire, under load in CI.)
 */
export async function completedPolls(admin: SandboxAdmin): Promise<number> {
	// The trigger's requests only: no filter beyond the approved listing's status (another workflow's may have one).
	const unfiltered = (query: Record<string, unknown>, allowed: string[]) => Object.keys(query).every((key) => ['page_size', 'after', ...allowed].includes(key));
	const answered = (await admin.requests()).filter((r) => r.method === 'GET' && r.status === 200);
	const approved = answered.filter((r) => r.path === '/v1/items' && r.query.validation_status === 'approved' && unfiltered(r.query, ['validation_status'])).length;
	const nonApproved = answered.filter((r) => r.path === '/v1/items/non_approved' && unfiltered(r.query, [])).length;
	return Math.min(approved, nonApproved);
}

export async function waitForPolls(admin: SandboxAdmin, atLeast: number, timeoutMs: number, what: string): Promise<number> {
	return await pollUntil(
		() => completedPolls(admin),
		(polls) => polls >= atLeast,
		timeoutMs,
		(polls) => `${what}: ${polls} polls read the listings within ${timeoutMs / 1000} s, expected at least ${atLeast}`,
	);
}

/** `event item_id previous->status`, and ` (previous unknown)` when the event says its previous status is unknown. */
export const eventSummary = (j: Record<string, unknown>) =>
	`${String(j.event)} ${String(j.item_id)} ${String(j.previous_status)}->${String(j.status)}${j.previous_status_unknown === true ? ' (previous unknown)' : ''}`;

/** eventSummary of every item of every finished execution, oldest execution first. */
export async function executionSummaries(api: N8nApi, workflowId: string): Promise<string[][]> {
	return (await finishedExecutions(api, workflowId))
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((e) => executionItems(e, TRIGGER_NODE).map(eventSummary).sort());
}

/**
 * For a failed count: each finished execution (id, start, events) and the listing requests' times, so a run that
 * went wrong once under load says which poll announced what.
 */
export async function pollHistory(api: N8nApi, admin: SandboxAdmin, workflowId: string): Promise<string> {
	const executions = (await finishedExecutions(api, workflowId))
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((e) => `#${e.id} ${e.startedAt ?? '?'} (${e.mode ?? '?'}): ${executionItems(e, TRIGGER_NODE).map(eventSummary).sort().join('; ')}`);
	const listings = (await admin.requests())
		.filter((r) => r.path.startsWith('/v1/items'))
		.map((r) => `${r.at} ${r.query.validation_status ?? r.path}${r.query.after ? ' (next page)' : ''} ${r.status}`);
	return `executions: ${executions.join(' | ')} — listing requests: ${listings.join(', ')}`;
}

export async function waitForExecutions(api: N8nApi, workflowId: string, count: number, timeoutMs: number, what: string): Promise<string[][]> {
	return await pollUntil(
		() => executionSummaries(api, workflowId),
		(seen) => seen.length >= count,
		timeoutMs,
		(seen) => `${what}: ${seen.length} executions within ${timeoutMs / 1000} s, expected ${count}: ${JSON.stringify(seen)}`,
	);
}

/** Listing requests the sandbox answered since its log was last cleared. */
export async function listingRequests(admin: SandboxAdmin): Promise<number> {
	return (await admin.requests()).filter((r) => r.path.startsWith('/v1/items')).length;
}

export async function waitForListingRequests(admin: SandboxAdmin, atLeast: number, timeoutMs: number, what: string): Promise<number> {
	return await pollUntil(
		() => listingRequests(admin),
		(count) => count >= atLeast,
		timeoutMs,
		(count) => `${what}: ${count} listing requests within ${timeoutMs / 1000} s, expected at least ${atLeast}`,
		100,
	);
}

/** Resolves once no listing request was answered for `quietMs` (a poll is over); returns the count then. */
export async function waitForQuiet(admin: SandboxAdmin, quietMs: number, timeoutMs: number): Promise<number> {
	const deadline = Date.now() + timeoutMs;
	let last = await listingRequests(admin);
	let since = Date.now();
	for (;;) {
		await new Promise((resolve) => setTimeout(resolve, 200));
		const now = await listingRequests(admin);
		if (now !== last) {
			last = now;
			since = Date.now();
		} else if (Date.now() - since >= quietMs) {
			return now;
		}
		if (Date.now() > deadline) fail(`the trigger kept reading for ${timeoutMs / 1000} s`);
	}
}
