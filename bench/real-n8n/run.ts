/**
 * Issue 38 in REAL n8n (not the harness): the package, packed and installed into n8n 2.x (the e2e suite's pinned
 * release), against the sandbox answering every request 20 ms late, with the Item Trigger's catalogue (5,000
 * non-approved + 15,000 approved items). The harness keeps credentials in memory; real n8n loads and decrypts the
 * credential from its database for every `httpRequestWithAuthentication`, which only this measures.
 *
 *   npx ts-node --transpile-only bench/real-n8n/run.ts
 *
 * Measured, each from the sandbox's request log (arrival of the first to the last listing request, + one latency):
 * - the export (Item → Get Many, approved, Return All, Output: File CSV) by `n8n execute`, REAL_N8N_EXPORTS times;
 * - the Item Trigger's scheduled polls (every minute) in `n8n start`, REAL_N8N_POLLS of them (the activation's
 *   first-pages read is not counted);
 * - the floors, from this process: a plain `fetch` loop and n8n's own HTTP client (`OutboundHttp`, what
 *   `helpers.httpRequest` calls) over the same pages, the approved listing alone and both listings side by side.
 * Env: E2E_SKIP_BUILD=1 (dist/ as is), REAL_N8N_CPU_PROF=<dir> (a V8 CPU profile of n8n start and of each execute),
 * REAL_N8N_POLLS (default 2), REAL_N8N_EXPORTS (default 3). Work folder: .e2e-work/bench-real-n8n (kept).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { bearerToken, readWithFetch, readWithN8nHttp, type PageReader } from '../pageReaders';
import { SandboxAdmin } from '../../test/sandbox/admin-client';
import type { RequestLogEntry } from '../../test/sandbox/types';
import { N8N_RELEASES } from '../../test/e2e/install';
import { n8nEnv } from '../../test/e2e/lib/n8n-env';
import { executeWorkflow, importCredentials, importWorkflows, type N8nInstance } from '../../test/e2e/lib/n8n-cli';
import { installPackedPackage, REPO_DIR } from '../../test/e2e/lib/package-loader';
import { freePort } from '../../test/e2e/lib/ports';
import { buildInstallAndPack } from '../../test/e2e/lib/prepare';
import { startSandboxProcess, type SandboxProcess } from '../../test/e2e/lib/sandbox-process';
import { instantiate } from '../../test/e2e/lib/templates';
import { sandboxTarget } from '../../test/e2e/target';
import { startServerHandle } from '../../test/e2e/suite/server-phase';
import type { ServerHandle } from '../../test/e2e/checks/types';

const NON_APPROVED = 5_000;
const APPROVED = 15_000;
const LATENCY_MS = 20;
const PAGE_SIZE = 100;
const POLLS = Number(process.env.REAL_N8N_POLLS ?? 2);
const EXPORTS = Number(process.env.REAL_N8N_EXPORTS ?? 3);
const CPU_PROF = process.env.REAL_N8N_CPU_PROF;

const log = (m: string) => console.error(`[real-n8n] ${m}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const isListing = (r: RequestLogEntry) => r.method === 'GET' && (r.path === '/v1/items' || r.path === '/v1/items/non_approved');

/** Arrival of the first to the last request, plus the last one's latency. */
function span(requests: RequestLogEntry[]): number {
	const times = requests.map((r) => Date.parse(r.at));
	return Math.max(...times) - Math.min(...times) + LATENCY_MS;
}

/** Listing requests split where nothing arrived for `gapMs`: one group per poll. */
function groups(requests: RequestLogEntry[], gapMs: number): RequestLogEntry[][] {
	const out: RequestLogEntry[][] = [];
	let last = Number.NEGATIVE_INFINITY;
	for (const r of requests) {
		const at = Date.parse(r.at);
		if (at - last > gapMs) out.push([]);
		out[out.length - 1].push(r);
		last = at;
	}
	return out;
}

/** One listing read to its end, keeping nothing: the floor. Returns the pages read. */
async function readLoop(read: PageReader, sandbox: SandboxProcess, token: string, path: string, query: Record<string, string>): Promise<number> {
	let cursor: string | undefined;
	let pages = 0;
	do {
		const qs = new URLSearchParams({ ...query, page_size: String(PAGE_SIZE), ...(cursor ? { after: cursor } : {}) });
		const page = await read(`${sandbox.baseUrl}${path}?${qs}`, token);
		pages++;
		cursor = page.page_info.has_next_page ? page.page_info.end_cursor : undefined;
	} while (cursor);
	return pages;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
	const started = performance.now();
	const value = await fn();
	return [performance.now() - started, value];
}

async function main(): Promise<void> {
	const release = N8N_RELEASES.find((r) => r.major === '2')!;
	const { install, tarball } = await buildInstallAndPack(release, log);
	const workDir = join(REPO_DIR, '.e2e-work', 'bench-real-n8n');
	rmSync(workDir, { recursive: true, force: true });
	const userFolder = join(workDir, 'user');
	mkdirSync(userFolder, { recursive: true });
	if (CPU_PROF) mkdirSync(CPU_PROF, { recursive: true });
	const sandbox = await startSandboxProcess(0);
	let server: ServerHandle | undefined;
	const lines: string[] = [];
	try {
		const target = sandboxTarget(sandbox);
		const admin = new SandboxAdmin(target.sandboxUrl!);
		await admin.seedManyItems({ count: NON_APPROVED, status: 'pending', skuPrefix: 'POLL-P-' });
		await admin.seedManyItems({ count: APPROVED, status: 'approved', skuPrefix: 'POLL-A-' });
		await admin.advanceClock(600);
		await admin.setLatency(LATENCY_MS);
		const instance: N8nInstance = {
			version: install.release.version,
			nodeDir: install.nodeDir,
			n8nBin: install.n8nBin,
			env: n8nEnv({
				nodeDir: install.nodeDir,
				userFolder,
				port: await freePort(),
				brokerPort: await freePort(),
				extra: CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROF}` } : {},
			}),
		};
		await installPackedPackage(tarball, userFolder, install.nodeDir);
		const files = instantiate(target, join(workDir, 'import'), { sources: [{ dir: join(__dirname, 'workflows'), prefix: 'bench-' }] });
		await importCredentials(instance, files.credentialsFile);
		await importWorkflows(instance, files.workflowsDir);

		// The floor, from this process (the token fetched once, kept).
		const token = await bearerToken(sandbox);
		for (const [name, read] of [['fetch', readWithFetch], ['n8n client (OutboundHttp)', readWithN8nHttp]] as const) {
			const [approvedMs, approvedPages] = await timed(() => readLoop(read, sandbox, token, '/v1/items', { validation_status: 'approved' }));
			const [bothMs] = await timed(() =>
				Promise.all([
					readLoop(read, sandbox, token, '/v1/items/non_approved', {}),
					readLoop(read, sandbox, token, '/v1/items', { validation_status: 'approved' }),
				]),
			);
			lines.push(`${name} loop: approved listing ${approvedPages} pages ${seconds(approvedMs)}; both listings side by side ${seconds(bothMs)}`);
			log(lines[lines.length - 1]);
		}

		for (let i = 1; i <= EXPORTS; i++) {
			await admin.clearRequests();
			const outcome = await executeWorkflow(instance, files.ids['bench-export'], 600_000);
			if (!outcome.ok) throw new Error(`the export failed: ${JSON.stringify(outcome.error)}\n${outcome.log}`);
			const listing = (await admin.requests()).filter(isListing);
			lines.push(`export ${i}: ${listing.length} listing requests in ${seconds(span(listing))} (${(span(listing) / listing.length).toFixed(1)} ms/request; n8n execute ${seconds(outcome.ms)})`);
			log(lines[lines.length - 1]);
		}

		server = await startServerHandle(instance, join(workDir, 'n8n-start.log'));
		await admin.clearRequests();
		await server.api.activate(files.ids['bench-poll']);
		log(`activated; waiting for ${POLLS} scheduled polls (every minute)`);
		const deadline = Date.now() + (POLLS + 2) * 60_000 + 60_000;
		let polls: RequestLogEntry[][] = [];
		while (Date.now() < deadline) {
			await new Promise((r) => setTimeout(r, 3000));
			const listing = (await admin.requests()).filter(isListing);
			const done = listing.length > 0 && Date.now() - Date.parse(listing[listing.length - 1].at) > 5000;
			polls = groups(listing, 5000).filter((g) => g.length > 10);
			if (done && polls.length >= POLLS) break;
		}
		for (const [index, poll] of polls.slice(0, POLLS).entries()) {
			lines.push(`scheduled poll ${index + 1}: ${poll.length} listing requests in ${seconds(span(poll))}`);
			log(lines[lines.length - 1]);
		}
		if (polls.length < POLLS) lines.push(`only ${polls.length} complete scheduled polls seen before the deadline`);
		await server.api.deactivate(files.ids['bench-poll']);
	} finally {
		await server?.server.stop();
		await sandbox.stop();
	}
	console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
