/**
 * What the queue-mode suite asserts (run.ts runs them in this order, on one cluster): bulk create on a worker,
 * concurrent executions spread over both workers, the token shared by the workers (after expiry, with and without
 * "one active token per client"), Max Requests per Second per worker, executions on both workers sharing one rate
 * limit (nothing lost; wall / floor in the detail), and the trigger: registered once by the main, pointed at the webhook processor,
 * events run on workers, forged deliveries refused, a main restart without a second registration, and the
 * previous URL back after unpublishing.
 */
import type { SandboxAdmin } from '../../sandbox/admin-client';
import type { RequestLogEntry } from '../../sandbox/types';
import { VendorDirect } from '../checks/vendor-direct';
import type { N8nApi } from '../lib/n8n-api';
import { SANDBOX_SIGNING_SECRET } from '../lib/templates';
import type { ApiTarget } from '../target';
import type { Cluster } from './cluster';
import { listToFileQueueChecks } from './list-to-file';

export interface QueueContext {
	admin: SandboxAdmin;
	api: N8nApi;
	cluster: Cluster;
	target: ApiTarget;
	workflowId(name: string): string;
}

export interface QueueCheck {
	name: string;
	/** Resolves with what was seen (the report's detail); throws with what differed. */
	run(ctx: QueueContext): Promise<string>;
}

const TOKEN_PATH = '/auth/api/v1/bearer-token';
const TRIGGER_WEBHOOK_ID = '0e2e0000-0000-4000-8000-000000000001';
const PREVIOUS_URL = 'https://previous.example.com/vendor-hook';

function fail(message: string): never {
	throw new Error(message);
}

function webhookUrl(ctx: QueueContext, path: string): string {
	return `${ctx.cluster.webhook.url}/webhook/${path}`;
}

async function post(url: string, body: unknown): Promise<{ status: number; json: unknown; text: string }> {
	const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	const text = await res.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.status, json, text };
}

const published = new Set<string>();

/**
 * Publishes a webhook workflow through the main (once per run, so any check may run alone with E2E_ONLY) and waits
 * until the webhook processor serves it (count 0: no API calls).
 */
async function publishWebhookWorkflow(ctx: QueueContext, workflow: string, path: string): Promise<void> {
	if (published.has(workflow)) return;
	published.add(workflow);
	await ctx.api.activate(ctx.workflowId(workflow));
	const deadline = Date.now() + 30_000;
	for (;;) {
		const res = await post(webhookUrl(ctx, path), { count: 0, prefix: 'NONE' });
		if (res.status === 200) return;
		if (Date.now() > deadline) fail(`${workflow}: the webhook processor still answers ${res.status} 30 s after publishing: ${res.text.slice(0, 200)}`);
		await new Promise((r) => setTimeout(r, 500));
	}
}

/** Which processes ran the execution: a worker logs "Worker started execution <id> (job <n>)" (n8n 2.x, level info). */
export function processesThatRan(ctx: QueueContext, executionId: string): string[] {
	const pattern = new RegExp(`Worker started execution ${executionId} \\(job`);
	return ctx.cluster.all().filter((p) => pattern.test(p.log())).map((p) => p.name);
}

async function newExecutionIds(ctx: QueueContext, workflow: string, before: Set<string>): Promise<string[]> {
	return (await ctx.api.executions(ctx.workflowId(workflow))).map((e) => e.id).filter((id) => !before.has(id));
}

async function executionIds(ctx: QueueContext, workflow: string): Promise<Set<string>> {
	return new Set((await ctx.api.executions(ctx.workflowId(workflow))).map((e) => e.id));
}

/** Milliseconds until `done()` first held, checked every second; undefined if it did not within `ms`. */
async function settledWithin(ms: number, done: () => Promise<boolean>): Promise<number | undefined> {
	const started = Date.now();
	while (Date.now() - started <= ms) {
		if (await done()) return Date.now() - started;
		await new Promise((r) => setTimeout(r, 1_000));
	}
	return undefined;
}

function count(log: RequestLogEntry[], match: (r: RequestLogEntry) => boolean): number {
	return log.filter(match).length;
}

/** Items of a reads response that did not get the consignment (error items, or a response that is no list). */
function lostItems(response: { status: number; json: unknown }, expected: number): number {
	if (response.status !== 200 || !Array.isArray(response.json)) return expected;
	const good = (response.json as Array<Record<string, unknown>>).filter((item) => item.error === undefined && item.id !== undefined);
	return expected - good.length;
}

/** 6 executions × `perExecution` reads at once, after every token expired. */
async function readsAfterExpiry(ctx: QueueContext, oneActiveTokenPerClient: boolean, perExecution = 50) {
	await publishWebhookWorkflow(ctx, 'queue-reads', 'e2e-queue-reads');
	await ctx.admin.setOneActiveTokenPerClient(oneActiveTokenPerClient);
	await ctx.admin.advanceClock(3600);
	await ctx.admin.clearRequests();
	const before = await executionIds(ctx, 'queue-reads');
	const responses = await Promise.all(
		Array.from({ length: 6 }, async () => await post(webhookUrl(ctx, 'e2e-queue-reads'), { count: perExecution })),
	);
	const log = await ctx.admin.requests();
	const ids = await newExecutionIds(ctx, 'queue-reads', before);
	return {
		lost: responses.reduce((sum, r) => sum + lostItems(r, perExecution), 0),
		exchanges: count(log, (r) => r.path === TOKEN_PATH),
		unauthorized: count(log, (r) => r.status === 401),
		reads: count(log, (r) => r.path === '/v1/consignments/cons_12345' && r.status === 200),
		workers: [...new Set(ids.flatMap((id) => processesThatRan(ctx, id)))].sort(),
		statuses: responses.map((r) => r.status),
	};
}

/**
 * The highest rate of `times` (ms) in any `windowMs` window, in requests per second: the intervals between the
 * requests that fit in the window, divided by its length (exact pacing at 5 req/s gives 5.0; 4 s smooth out the
 * jitter of arrival at the sandbox on a loaded machine).
 */
function peakRate(times: number[], windowMs = 4_000): number {
	let peak = 0;
	for (let i = 0, j = 0; i < times.length; i++) {
		while (times[i] - times[j] > windowMs) j++;
		peak = Math.max(peak, i - j);
	}
	return peak / (windowMs / 1000);
}

/** Runs `executions` × `perExecution` paced reads at once: their peak rate and the workers that ran them. */
async function pacedReads(ctx: QueueContext, executions: number, perExecution: number) {
	await publishWebhookWorkflow(ctx, 'queue-reads-paced', 'e2e-queue-paced');
	await ctx.admin.clearRequests();
	const before = await executionIds(ctx, 'queue-reads-paced');
	const responses = await Promise.all(
		Array.from({ length: executions }, async () => await post(webhookUrl(ctx, 'e2e-queue-paced'), { count: perExecution })),
	);
	const lost = responses.reduce((sum, r) => sum + lostItems(r, perExecution), 0);
	const times = (await ctx.admin.requests())
		.filter((r) => r.path === '/v1/consignments/cons_12345' && r.status === 200)
		.map((r) => Date.parse(r.at))
		.sort((a, b) => a - b);
	const ids = await newExecutionIds(ctx, 'queue-reads-paced', before);
	const workers = [...new Set(ids.flatMap((id) => processesThatRan(ctx, id)))].sort();
	return { lost, rate: peakRate(times), workers };
}

/** The shared-quota check: 4 executions × 100 updates at once against 10 req/s for the credential (floor 40 s). */
const SHARED_QUOTA = { executions: 4, rowsPerExecution: 100, limit: { rate: 10, burst: 10, retryAfter: 'seconds' } } as const;
/** A generous bound on wall / floor: a sign of pacing gone wrong (the issue saw 2.36), not a benchmark (bench/ is). */
const SHARED_QUOTA_MAX_WALL_FACTOR = 2;

/** Output items of an Update response that are not a result (error items under Continue On Fail, or no list at all). */
function failedUpdates(response: { status: number; json: unknown }, expected: number): number {
	if (response.status !== 200 || !Array.isArray(response.json)) return expected;
	const results = (response.json as Array<Record<string, unknown>>).filter((item) => item.error === undefined);
	return expected - results.length;
}

export const QUEUE_CHECKS: QueueCheck[] = [
	{
		name: 'queue: bulk create of 1,203 items from a production webhook runs on a worker, in 500-item requests',
		async run(ctx) {
			await publishWebhookWorkflow(ctx, 'queue-bulk-create', 'e2e-queue-bulk');
			await ctx.admin.clearRequests();
			const before = await executionIds(ctx, 'queue-bulk-create');
			const response = await post(webhookUrl(ctx, 'e2e-queue-bulk'), { count: 1203, prefix: 'Q-BULK' });
			if (response.status !== 200) fail(`the webhook answered ${response.status}: ${response.text.slice(0, 300)}`);
			const items = Array.isArray(response.json) ? (response.json as Array<Record<string, unknown>>) : [];
			const failed = items.filter((item) => item.error !== undefined);
			if (items.length !== 1203 || failed.length) fail(`output: ${items.length} items, ${failed.length} failed: ${JSON.stringify(failed[0] ?? {}).slice(0, 300)}`);
			const posts = (await ctx.admin.requests()).filter((r) => r.method === 'POST' && r.path === '/v1/consignments/cons_12345/items');
			const sizes = posts.map((r) => ((r.body as { items?: unknown[] }).items ?? []).length);
			if (JSON.stringify(sizes) !== JSON.stringify([500, 500, 203])) fail(`create requests carried ${JSON.stringify(sizes)} items, expected [500,500,203]`);
			const created = (await ctx.admin.state()).items.filter((i) => i.vendor_sku.startsWith('Q-BULK-')).length;
			if (created !== 1203) fail(`${created} items created in the sandbox, expected 1203`);
			const ids = await newExecutionIds(ctx, 'queue-bulk-create', before);
			const ranOn = ids.flatMap((id) => processesThatRan(ctx, id));
			if (ids.length !== 1 || ranOn.length !== 1 || !ranOn[0].startsWith('worker')) fail(`execution(s) ${ids.join(', ')} ran on: ${ranOn.join(', ') || 'no process log names them'}`);
			return `1203 created in 3 POSTs (500/500/203), execution ${ids[0]} on ${ranOn[0]}`;
		},
	},
	{
		name: 'queue: 6 executions at once are spread over both workers and all succeed',
		async run(ctx) {
			await publishWebhookWorkflow(ctx, 'queue-reads', 'e2e-queue-reads');
			const before = await executionIds(ctx, 'queue-reads');
			const responses = await Promise.all(Array.from({ length: 6 }, async () => await post(webhookUrl(ctx, 'e2e-queue-reads'), { count: 10 })));
			const lost = responses.reduce((sum, r) => sum + lostItems(r, 10), 0);
			if (lost) fail(`${lost} of 60 reads failed; statuses ${responses.map((r) => r.status).join(',')}`);
			const ids = await newExecutionIds(ctx, 'queue-reads', before);
			const workers = [...new Set(ids.flatMap((id) => processesThatRan(ctx, id)))].sort();
			if (ids.length !== 6) fail(`${ids.length} new executions, expected 6`);
			if (JSON.stringify(workers) !== JSON.stringify(['worker 1', 'worker 2'])) fail(`executions ran on: ${workers.join(', ')}`);
			return `6 executions, 60 reads ok, ran on ${workers.join(' and ')}`;
		},
	},
	{
		name: 'queue: token after expiry, one active token per client: 6 executions × 50 requests over 2 workers lose nothing, ≤ 4 exchanges',
		async run(ctx) {
			const seen = await readsAfterExpiry(ctx, true);
			const detail = `lost ${seen.lost}/300, exchanges ${seen.exchanges}, 401s ${seen.unauthorized}, reads ok ${seen.reads}, workers ${seen.workers.join('+')}`;
			if (seen.lost > 0 || seen.exchanges > 4) fail(`${detail}; statuses ${seen.statuses.join(',')}`);
			if (seen.workers.length !== 2) fail(`${detail}: expected both workers to run executions`);
			return detail;
		},
	},
	{
		name: 'queue: token after expiry, ordinary service: at most one exchange per worker, nothing lost',
		async run(ctx) {
			const seen = await readsAfterExpiry(ctx, false);
			const detail = `lost ${seen.lost}/300, exchanges ${seen.exchanges}, 401s ${seen.unauthorized}, workers ${seen.workers.join('+')}`;
			if (seen.lost > 0 || seen.exchanges > seen.workers.length) fail(`${detail}; statuses ${seen.statuses.join(',')}`);
			return detail;
		},
	},
	{
		name: 'queue: Max Requests per Second holds per worker process: 5 req/s on one worker, about twice that over two',
		async run(ctx) {
			const one = await pacedReads(ctx, 1, 30);
			const both = await pacedReads(ctx, 6, 10);
			const detail = `1 execution on ${one.workers.join('+')}: peak ${one.rate.toFixed(1)} req/s; 6 executions on ${both.workers.join('+')}: peak ${both.rate.toFixed(1)} req/s; lost ${one.lost + both.lost}`;
			if (one.lost + both.lost > 0 || one.workers.length !== 1) fail(detail);
			if (one.rate > 5.5) fail(`${detail}: one worker went faster than its 5 req/s`);
			if (both.workers.length !== 2) fail(`${detail}: expected both workers to run executions`);
			// Each worker keeps its own 5 req/s: together clearly above one worker's ceiling, never above both of theirs.
			if (both.rate <= 6.5 || both.rate > 11) fail(`${detail}: expected between 6.5 and 11 req/s with two workers`);
			return detail;
		},
	},
	{
		name: 'queue: several executions on both workers share one rate limit: none lost, wall / floor reported',
		async run(ctx) {
			const { executions, rowsPerExecution, limit } = SHARED_QUOTA;
			await publishWebhookWorkflow(ctx, 'queue-updates', 'e2e-queue-updates');
			const before = await executionIds(ctx, 'queue-updates');
			await ctx.admin.setRateLimit(limit);
			await ctx.admin.clearRequests();
			const started = Date.now();
			let responses: Array<{ status: number; json: unknown; text: string }>;
			try {
				responses = await Promise.all(
					Array.from({ length: executions }, async () => await post(webhookUrl(ctx, 'e2e-queue-updates'), { count: rowsPerExecution })),
				);
			} finally {
				await ctx.admin.clearRateLimit();
			}
			const wallS = (Date.now() - started) / 1000;
			const patches = (await ctx.admin.requests()).filter((r) => r.method === 'PATCH');
			const accepted = patches.filter((r) => r.status === 200).length;
			const refused = patches.filter((r) => r.status === 429).length;
			const total = executions * rowsPerExecution;
			const floorS = total / limit.rate;
			const lost = responses.reduce((sum, r) => sum + failedUpdates(r, rowsPerExecution), 0);
			const ids = await newExecutionIds(ctx, 'queue-updates', before);
			const workers = [...new Set(ids.flatMap((id) => processesThatRan(ctx, id)))].sort();
			const spanS = patches.length ? (Date.parse(patches.at(-1)!.at) - Date.parse(patches[0].at)) / 1000 : 0;
			const detail =
				`${executions} executions × ${rowsPerExecution} updates at ${limit.rate} req/s on ${workers.join('+') || 'no worker'}: ` +
				`wall / floor ${(wallS / floorS).toFixed(2)} (${wallS.toFixed(1)} s / ${floorS.toFixed(0)} s; first to last PATCH ${spanS.toFixed(1)} s), ` +
				`lost ${lost}/${total}, ${accepted} PATCHes accepted, ${refused} answered 429`;
			if (lost > 0 || accepted < total) fail(`${detail}; statuses ${responses.map((r) => r.status).join(',')}`);
			if (workers.length !== 2) fail(`${detail}: expected both workers to run executions`);
			if (wallS > SHARED_QUOTA_MAX_WALL_FACTOR * floorS) fail(`${detail}: more than ${SHARED_QUOTA_MAX_WALL_FACTOR} × the floor`);
			return detail;
		},
	},
	{
		name: 'queue: trigger registered once by the main at the webhook processor, events run on workers, forged refused, main restart, unpublish restores',
		async run(ctx) {
			const vendor = new VendorDirect(ctx.target);
			await vendor.patch({ webhook_url: PREVIOUS_URL, webhook_enabled: true });
			await ctx.admin.clearRequests();
			const workflowId = ctx.workflowId('trigger-all-events');
			const url = `${ctx.cluster.webhook.url}/webhook/${TRIGGER_WEBHOOK_ID}/webhook`;
			await ctx.api.activate(workflowId);
			await vendor.waitFor((p) => p.webhook_url === url && p.preferences.webhook_enabled, `webhook_url ${url} (the webhook processor)`);
			const registrations = () => ctx.admin.requests().then((log) => count(log, (r) => r.method === 'PATCH' && r.path === '/v1/vendor'));
			const patchesAtStart = await registrations();
			if (patchesAtStart !== 1) fail(`${patchesAtStart} PATCH /v1/vendor on publishing, expected 1`);

			// A signed event: delivered to the webhook processor, executed by a worker.
			const before = await executionIds(ctx, 'trigger-all-events');
			const runsEvent = async (what: string): Promise<string> => {
				const delivery = await ctx.admin.emitEvent({ operation: 'item_purchased' });
				if (delivery.status !== 200) fail(`${what}: the webhook processor answered ${delivery.status ?? delivery.error}`);
				const deadline = Date.now() + 20_000;
				for (;;) {
					const fresh = await newExecutionIds(ctx, 'trigger-all-events', before);
					const ranOn = fresh.flatMap((id) => processesThatRan(ctx, id));
					if (fresh.length && ranOn.some((p) => p.startsWith('worker'))) {
						fresh.forEach((id) => before.add(id));
						return `${fresh.join(',')} on ${ranOn.join(',')}`;
					}
					if (Date.now() > deadline) fail(`${what}: no execution on a worker within 20 s (new: ${fresh.join(',') || 'none'}, logs: ${ranOn.join(',')})`);
					await new Promise((r) => setTimeout(r, 500));
				}
			};
			const first = await runsEvent('signed event');

			// A forged one: refused, nothing runs.
			const forged = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-trr-signature': '0'.repeat(64) },
				body: JSON.stringify({ body: { operation: 'item_purchased', data: { sku: 'FORGED', vendor_sku: 'SBX-1000' } } }),
			});
			await new Promise((r) => setTimeout(r, 2_000));
			const afterForged = await newExecutionIds(ctx, 'trigger-all-events', before);
			const forgedRan = afterForged.filter((id) => processesThatRan(ctx, id).length > 0);
			if (forged.status < 400 || forgedRan.length) fail(`forged delivery: answered ${forged.status}, executions ${forgedRan.join(',') || 'none'}`);

			// The main restarts: no second registration, events keep running.
			await ctx.cluster.main.stop();
			await ctx.cluster.main.start();
			await new Promise((r) => setTimeout(r, 3_000));
			const afterRestart = await vendor.get();
			const patches = await registrations();
			if (patches !== 1 || afterRestart.webhook_url !== url) fail(`after the main restarted: ${patches} PATCH /v1/vendor in all, webhook_url ${afterRestart.webhook_url}`);
			const second = await runsEvent('signed event after the main restarted');

			await ctx.api.deactivate(workflowId);
			await vendor.waitFor((p) => p.webhook_url === PREVIOUS_URL && p.preferences.webhook_enabled, `previous URL ${PREVIOUS_URL} restored after unpublishing`);
			return `1 registration at ${url}; event ${first}; forged ${forged.status}; after main restart 1 registration, event ${second}; previous URL restored`;
		},
	},
	{
		name: 'queue: item trigger polled by the main only, its executions run on workers, each status change once, also across a main restart',
		async run(ctx) {
			const workflow = 'item-trigger-poll-every-minute';
			const workflowId = ctx.workflowId(workflow);
			await ctx.admin.reset();
			await ctx.admin.setSigningSecret(SANDBOX_SIGNING_SECRET);
			const { items } = await ctx.admin.state();
			const [pending, rejected] = ['pending', 'rejected'].map((status) => items.find((i) => i.validation_status === status)!.item_id);
			// A poll reads the non-approved listing, then the approved one (one page each for the seed's 52 items).
			const polls = async () => {
				const log = await ctx.admin.requests();
				return {
					nonApproved: count(log, (r) => r.path === '/v1/items/non_approved' && r.status === 200),
					approved: count(log, (r) => r.path === '/v1/items' && r.query.validation_status === 'approved' && r.status === 200),
				};
			};
			const waitForPoll = async (after: number, what: string) => {
				const deadline = Date.now() + 90_000;
				for (;;) {
					const seen = await polls();
					if (seen.approved > after) return seen.approved;
					if (Date.now() > deadline) fail(`${what}: no poll within 90 s (${JSON.stringify(seen)})`);
					await new Promise((r) => setTimeout(r, 1_000));
				}
			};
			const finished = async () => (await ctx.api.executions(workflowId)).filter((e) => !['new', 'running', 'waiting'].includes(e.status ?? ''));
			const summary = (e: Awaited<ReturnType<typeof finished>>[number]) =>
				(e.data?.resultData?.runData?.['Consignment Vendor Item Trigger'] ?? [])
					.flatMap((run) => run.data?.main?.[0] ?? [])
					.map(({ json }) => `${String(json.event)} ${String(json.item_id)} ${String(json.previous_status)}->${String(json.status)}`);
			const waitForExecutions = async (n: number, what: string) => {
				const deadline = Date.now() + 150_000;
				for (;;) {
					const done = await finished();
					if (done.length >= n) return done.sort((a, b) => Number(a.id) - Number(b.id));
					if (Date.now() > deadline) {
						// Every execution, settled or not, and the polls seen: a lost event and an execution no worker ran differ here.
						// (n8n's API leaves out the executions the main still counts as running: a queued one too.) A minute more
						// tells a late execution from a lost event.
						const every = (await ctx.api.executions(workflowId)).map((e) => `#${e.id} ${e.status ?? '?'} ${e.mode ?? '?'} ${e.startedAt ?? '?'}: ${JSON.stringify(summary(e))}`);
						const pollsSeen = JSON.stringify(await polls());
						const lateBy = await settledWithin(60_000, async () => (await finished()).length >= n);
						const late =
							lateBy === undefined
								? `${(await finished()).length} of ${n} finished within a further minute`
								: `all ${n} finished within ${Math.round(lateBy / 1000) + 1} s more (late, not lost)`;
						fail(`${what}: ${done.length} executions within 150 s, expected ${n}; executions: ${every.join(' | ') || 'none listed'}; polls: ${pollsSeen}; ${late}`);
					}
					await new Promise((r) => setTimeout(r, 1_000));
				}
			};

			await ctx.api.activate(workflowId);
			try {
				let polled = await waitForPoll(0, 'the activation poll (baseline)');
				await ctx.admin.setItemStatus(pending, 'approved');
				const [first] = await waitForExecutions(1, 'the poll after a status change');
				const ranOn = processesThatRan(ctx, first.id);
				if (!ranOn.length || !ranOn.every((p) => p.startsWith('worker'))) fail(`execution ${first.id} ran on ${ranOn.join(',') || 'no worker'}`);
				if (JSON.stringify(summary(first)) !== JSON.stringify([`status_changed ${pending} pending->approved`])) fail(`first execution: ${JSON.stringify(summary(first))}`);

				await ctx.cluster.main.stop();
				await ctx.admin.setItemStatus(rejected, 'pending');
				polled = (await polls()).approved;
				await ctx.cluster.main.start();
				polled = await waitForPoll(polled, 'the first poll after the main restarted');
				await waitForPoll(polled, 'a second poll after the restart');
				const all = await waitForExecutions(2, 'the change made while the main was down');
				const seen = all.map(summary);
				if (JSON.stringify(seen) !== JSON.stringify([[`status_changed ${pending} pending->approved`], [`status_changed ${rejected} rejected->pending`]])) {
					fail(`executions: ${JSON.stringify(seen)}`);
				}
				const { nonApproved, approved } = await polls();
				if (nonApproved !== approved) fail(`listing reads do not pair up (${nonApproved} non-approved, ${approved} approved): more than one process polls`);
				return `${approved} polls (one process), executions ${all.map((e) => `${e.id} on ${processesThatRan(ctx, e.id).join(',')}`).join('; ')}: ${JSON.stringify(seen)}`;
			} finally {
				await ctx.api.deactivate(workflowId).catch(() => undefined);
			}
		},
	},
	...listToFileQueueChecks,
];
