/**
 * The n8n side of issue 38's Item Trigger poll bench, in its own process (index.ts forks one per measurement):
 * - `fetch-sequential` / `fetch-side-by-side`: a plain fetch loop over the two listings the trigger reads
 *   (non-approved, then approved; or both at once), page_size 100, following the cursor, nothing kept;
 * - `n8n-sequential` / `n8n-side-by-side`: the same loops through n8n's own HTTP client (`OutboundHttp`, what
 *   `helpers.httpRequest` calls): the floor of a node that reads through n8n's helpers, as a community node must;
 * - `poll`: the trigger in n8n's poll context (test/harness/trigger/poll-host.ts: n8n-core's PollContext, one per
 *   activation): the activation, one scheduled poll (the baseline completes), then the measured scheduled poll.
 * Protocol: argv = mode; parent → {sandbox} over IPC; child → {type: 'result', result}.
 */
import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';

import { CredentialStore, sandboxCredential } from '../../test/harness';
import { startPollHost } from '../../test/harness/trigger';
import { SandboxAdmin } from '../../test/sandbox/admin-client';

export interface PollBenchRequest {
	sandbox: { baseUrl: string; authUrl: string; clientId: string; clientSecret: string };
}

export interface PollBenchResult {
	wallMs: number;
	/** The process's CPU time over the same span (user + system). */
	cpuMs: number;
	records: number;
	/** Listing requests of the measured poll (poll mode). */
	requests?: number;
	/** What the measured poll returned (items), for the poll mode. */
	announced?: number;
	error?: string;
}

interface Page {
	products: unknown[];
	page_info: { has_next_page: boolean; end_cursor?: string };
}
type PageReader = (url: string, token: string) => Promise<Page>;

const readWithFetch: PageReader = async (url, token) => (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as Page;
const readWithN8nHttp: PageReader = async (url, token) =>
	(await Container.get(OutboundHttp).requests().request({ method: 'GET', url, headers: { authorization: `Bearer ${token}` }, json: true })) as Page;

const LISTINGS: Array<{ path: string; query: Record<string, string> }> = [
	{ path: '/v1/items/non_approved', query: {} },
	{ path: '/v1/items', query: { validation_status: 'approved' } },
];

const cpuMsSince = (before: NodeJS.CpuUsage) => {
	const used = process.cpuUsage(before);
	return (used.user + used.system) / 1000;
};

async function loop(request: PollBenchRequest, readPage: PageReader, sideBySide: boolean): Promise<PollBenchResult> {
	const { sandbox } = request;
	const exchange = await fetch(`${sandbox.authUrl}/api/v1/bearer-token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret }),
	});
	const { bearer_token: token } = (await exchange.json()) as { bearer_token: string };
	const readListing = async ({ path, query }: (typeof LISTINGS)[number]) => {
		let records = 0;
		let after: string | undefined;
		for (;;) {
			const qs = new URLSearchParams({ ...query, page_size: '100', ...(after ? { after } : {}) });
			const body = await readPage(`${sandbox.baseUrl}${path}?${qs.toString()}`, token);
			records += body.products.length;
			if (!body.page_info.has_next_page) return records;
			after = body.page_info.end_cursor;
		}
	};
	const started = performance.now();
	const cpuBefore = process.cpuUsage();
	let records = 0;
	if (sideBySide) records = (await Promise.all(LISTINGS.map(readListing))).reduce((a, b) => a + b, 0);
	else for (const listing of LISTINGS) records += await readListing(listing);
	return { wallMs: performance.now() - started, cpuMs: cpuMsSince(cpuBefore), records };
}

async function poll(request: PollBenchRequest): Promise<PollBenchResult> {
	const credentials = new CredentialStore([sandboxCredential(request.sandbox)]);
	const host = await startPollHost({ credentials });
	await host.activate();
	// The first scheduled poll completes the activation's partial baseline; the next one is a poll like every later one.
	await host.poll();
	const admin = new SandboxAdmin(request.sandbox.baseUrl);
	await admin.clearRequests();
	const started = performance.now();
	const cpuBefore = process.cpuUsage();
	const items = await host.poll();
	const wallMs = performance.now() - started;
	const cpuMs = cpuMsSince(cpuBefore);
	const failed = host.polls.at(-1)?.error;
	const requests = (await admin.requests()).filter((r) => r.path.startsWith('/v1/items')).length;
	return { wallMs, cpuMs, records: 0, requests, announced: items?.length ?? 0, error: failed?.message };
}

process.once('message', (request: PollBenchRequest) => {
	const mode = process.argv[2];
	const run =
		mode === 'poll'
			? poll(request)
			: loop(request, mode.startsWith('fetch') ? readWithFetch : readWithN8nHttp, mode.endsWith('side-by-side'));
	run
		.then((result) => process.send?.({ type: 'result', result }))
		.catch((error: unknown) => process.send?.({ type: 'result', result: { error: (error as Error).stack ?? String(error) } }))
		.finally(() => process.disconnect());
});
