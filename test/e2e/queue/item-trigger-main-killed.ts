/**
 * Issue 26, point 6: in queue mode the main process runs the Item Trigger's polls (workers only run the executions).
 * Killed (SIGKILL, no shutdown) while a poll reads, and started again, the main announces each change once: the
 * change the killed poll was reading, and one made while the main was down, by the first poll after the start;
 * nothing announced before is announced again.
 */
import type { ChildProcess } from 'node:child_process';

import type { SandboxAdmin } from '../../sandbox/admin-client';
import { killGroup } from '../lib/exec';
import type { QueueCheck, QueueContext } from './checks';
import type { N8nProcess } from './cluster';

const WORKFLOW = 'item-trigger-poll-every-minute';
const TRIGGER_NODE = 'Consignment Vendor Item Trigger';
/** Beyond the seeded 26 + 26: 21 pages per listing, a poll of 42 requests, at 100 ms each a few seconds long. */
const EXTRA_EACH = 2_000;
const POLL_REQUESTS = 2 * Math.ceil((EXTRA_EACH + 26) / 100);
const LATENCY_MS = 100;
/** One Poll Times interval (a minute) and the read. */
const POLL_WAIT_MS = 100_000;

function fail(message: string): never {
	throw new Error(message);
}

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

async function listingRequests(admin: SandboxAdmin): Promise<number> {
	return (await admin.requests()).filter((r) => r.path.startsWith('/v1/items')).length;
}

async function waitForListingRequests(admin: SandboxAdmin, atLeast: number, what: string): Promise<number> {
	const deadline = Date.now() + POLL_WAIT_MS + 30_000;
	for (;;) {
		const count = await listingRequests(admin);
		if (count >= atLeast) return count;
		if (Date.now() > deadline) fail(`${what}: ${count} listing requests, expected at least ${atLeast}`);
		await sleep(100);
	}
}

/** Resolves once no listing request was answered for 2 s (a poll is over); returns the count then. */
async function waitForQuiet(admin: SandboxAdmin): Promise<number> {
	let last = await listingRequests(admin);
	let since = Date.now();
	const deadline = Date.now() + 120_000;
	for (;;) {
		await sleep(250);
		const now = await listingRequests(admin);
		if (now !== last) [last, since] = [now, Date.now()];
		else if (Date.now() - since >= 2_000) return now;
		if (Date.now() > deadline) fail('the trigger kept reading for 2 minutes');
	}
}

async function summaries(ctx: QueueContext, workflowId: string): Promise<string[][]> {
	const done = (await ctx.api.executions(workflowId)).filter((e) => !['new', 'running', 'waiting'].includes(e.status ?? ''));
	return done
		.sort((a, b) => Number(a.id) - Number(b.id))
		.map((e) =>
			(e.data?.resultData?.runData?.[TRIGGER_NODE] ?? [])
				.flatMap((run) => run.data?.main?.[0] ?? [])
				.map(({ json }) => `${String(json.event)} ${String(json.item_id)} ${String(json.previous_status)}->${String(json.status)}`)
				.sort(),
		);
}

async function waitForExecutions(ctx: QueueContext, workflowId: string, count: number, what: string): Promise<string[][]> {
	const deadline = Date.now() + 2 * POLL_WAIT_MS;
	for (;;) {
		const seen = await summaries(ctx, workflowId);
		if (seen.length >= count) return seen;
		if (Date.now() > deadline) fail(`${what}: ${seen.length} executions, expected ${count}: ${JSON.stringify(seen)}`);
		await sleep(1_000);
	}
}

/** SIGKILL to the main's process group (n8n and its task runner): no shutdown, nothing saved. */
async function killMain(main: N8nProcess): Promise<void> {
	const child = (main as unknown as { child?: ChildProcess }).child;
	if (child?.pid === undefined || child.exitCode !== null) fail('the main is not running');
	const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	killGroup(child.pid, 'SIGKILL');
	await gone;
	await main.stop();
}

export const itemTriggerMainKilledCheck: QueueCheck = {
	name: 'queue: item trigger, the main killed (SIGKILL) while a poll reads and started again: each change announced once',
	async run(ctx) {
		const { admin } = ctx;
		const workflowId = ctx.workflowId(WORKFLOW);
		await admin.reset();
		const pending = await admin.seedManyItems({ count: EXTRA_EACH, status: 'pending', skuPrefix: 'KILL-P-' });
		const approved = await admin.seedManyItems({ count: EXTRA_EACH, status: 'approved', skuPrefix: 'KILL-A-' });
		// Made before the activation: items seeded within the trigger's clock margin would be "changed since it started
		// watching" (docs/item-trigger.md), so the service's clock moves on first.
		await admin.advanceClock(600);
		const [a, b] = [pending.first_item_id + EXTRA_EACH - 1, pending.first_item_id + EXTRA_EACH - 2];
		const c = approved.first_item_id + EXTRA_EACH - 1;
		const before = (await summaries(ctx, workflowId)).length;
		await admin.setLatency(LATENCY_MS);
		await admin.clearRequests();
		await ctx.api.activate(workflowId);
		try {
			// The activation's 2 requests and the first scheduled poll (the baseline), to its end.
			await waitForListingRequests(admin, 2 + POLL_REQUESTS, 'the activation and the first scheduled poll');
			await waitForQuiet(admin);
			await admin.setItemStatus(a, 'approved');
			await waitForExecutions(ctx, workflowId, before + 1, 'the change before the kill');
			const quiet = await waitForQuiet(admin);

			// The next poll reads a few pages; the main is killed in the middle of it.
			await admin.setItemStatus(b, 'rejected');
			await waitForListingRequests(admin, quiet + 5, 'the poll to be killed');
			await killMain(ctx.cluster.main);
			const readBeforeKill = (await listingRequests(admin)) - quiet;
			if (readBeforeKill >= POLL_REQUESTS) fail('the poll had finished before the kill: nothing was tested');
			await admin.setItemStatus(c, 'deleted');
			await ctx.cluster.main.start();

			const afterStart = await waitForExecutions(ctx, workflowId, before + 2, 'the changes after the main started again');
			// Two more complete polls: nothing is announced again.
			for (let poll = 0; poll < 2; poll++) {
				const read = await listingRequests(admin);
				await waitForListingRequests(admin, read + POLL_REQUESTS, 'a complete poll after the start');
				await waitForQuiet(admin);
			}
			await sleep(3_000);
			const all = (await summaries(ctx, workflowId)).slice(before);
			const expected = [[`status_changed ${a} pending->approved`], [`status_changed ${b} pending->rejected`, `status_changed ${c} approved->deleted`].sort()];
			if (JSON.stringify(all) !== JSON.stringify(expected)) fail(`executions: ${JSON.stringify(all)}, expected ${JSON.stringify(expected)}`);
			return `killed after ${readBeforeKill} of a poll's ${POLL_REQUESTS} requests; executions ${JSON.stringify(afterStart.slice(before))}`;
		} finally {
			await ctx.api.deactivate(workflowId).catch(() => undefined);
			await admin.clearLatency();
		}
	},
};
