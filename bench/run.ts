/**
 * `npm run bench [-- <filter>...] [--write]`: runs the scenarios (scenarios/index.ts) against the sandbox, each
 * through n8n's real engine in a client process (client.ts), prints the table, and writes it to bench/results.md
 * when every scenario ran (or with --write). A filter keeps the scenarios whose id contains it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type RequestLogEntry, type RunningSandbox } from '../test/sandbox';
import type { WorkloadFile } from './client';
import { codeTree, ROOT } from './code-tree';
import { EXPORT_BENCH_ID, runExportBench } from './export-file';
import { POLL_BENCH_ID, runPollBench } from './item-trigger-poll';
import { measure, type ProcessShare, type Row } from './metrics';
import type { ClientResult, Scenario } from './scenario';
import { SCENARIOS } from './scenarios';
import { markdownTable, processesTable } from './table';

const work = mkdtempSync(join(tmpdir(), 'consignment-bench-'));

/** Waits for one IPC message of `type` from the client; a failure or an exit rejects. */
function nextMessage(child: ChildProcess, type: string): Promise<void> {
	return new Promise((resolve, reject) => {
		const onMessage = (message: { type: string; message?: string }) => {
			if (message.type === type) {
				cleanup();
				resolve();
			} else if (message.type === 'failed') {
				cleanup();
				reject(new Error(`bench client failed: ${message.message}`));
			}
		};
		const onExit = (code: number | null) => {
			cleanup();
			reject(new Error(`bench client exited (${code}) before '${type}'`));
		};
		const cleanup = () => {
			child.off('message', onMessage);
			child.off('exit', onExit);
		};
		child.on('message', onMessage);
		child.on('exit', onExit);
	});
}

/** Asks the client to exit (so a --cpu-prof profile gets written); kills it if it does not within 10 s. */
async function stop(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	if (child.connected) child.send({ type: 'exit' });
	const timer = setTimeout(() => child.kill(), 10_000);
	await exited;
	clearTimeout(timer);
}

/** Forks one client process of `scenario`'s code and waits until it is warm (n8n loaded, token fetched). */
async function startClient(sandbox: RunningSandbox, scenario: Scenario): Promise<ChildProcess> {
	const child = fork(join(__dirname, 'client.ts'), [codeTree(scenario.code)], {
		cwd: ROOT,
		// BENCH_CPU_PROF=<dir>: a V8 CPU profile of each client (where n8n and the node spend their time).
		execArgv: ['-r', 'ts-node/register/transpile-only', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const ready = nextMessage(child, 'ready');
	child.send({ type: 'start', sandbox: { baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret } });
	await ready;
	return child;
}

/** `items` in `parts` contiguous parts, as even as they go (the first ones one longer). */
function split<T>(items: T[], parts: number): T[][] {
	const size = Math.floor(items.length / parts);
	const extra = items.length % parts;
	const chunks: T[][] = [];
	for (let part = 0, at = 0; part < parts; part++) {
		const length = size + (part < extra ? 1 : 0);
		chunks.push(items.slice(at, at + length));
		at += length;
	}
	return chunks;
}

/** Which process's share each logged request was: its path ends with an item id of that process's input. */
function processShares(log: RequestLogEntry[], parts: IDataObject[][], results: ClientResult[]): ProcessShare[] {
	const owner = new Map<string, number>();
	parts.forEach((items, part) => items.forEach((item) => owner.set(String(item.itemId), part)));
	const shares: ProcessShare[] = results.map((result) => ({ requests: 0, tooMany: 0, cpuMs: result.cpuMs, wallMs: result.wallMs }));
	for (const entry of log) {
		const part = owner.get(entry.path.split('/').at(-1) ?? '');
		if (part === undefined) continue;
		shares[part].requests++;
		if (entry.status === 429) shares[part].tooMany++;
	}
	return shares;
}

async function runOnce(sandbox: RunningSandbox, scenario: Scenario): Promise<Row> {
	const admin = sandbox.admin;
	await admin.reset();
	const workload = await scenario.prepare(admin);
	const processes = scenario.processes ?? 1;
	const children: ChildProcess[] = [];
	try {
		for (let i = 0; i < processes; i++) children.push(await startClient(sandbox, scenario));
		// Limits apply from here: the clients' warm-up (n8n loading, the token exchange) is not measured.
		if (scenario.rateLimit) await admin.setRateLimit(scenario.rateLimit);
		if (scenario.latencyMs) await admin.setLatency(scenario.latencyMs);
		await admin.clearRequests();

		const parts = split(workload.inputItems, processes);
		const resultFiles = parts.map((items, part) => {
			const file: WorkloadFile = {
				parameters: workload.parameters,
				typeVersion: workload.typeVersion,
				inputItems: items,
				settings: workload.settings ?? { onError: 'continueRegularOutput' },
				priorRuns: workload.priorRuns,
			};
			writeFileSync(join(work, `workload-${part}.json`), JSON.stringify(file));
			return join(work, `result-${part}.json`);
		});
		const done = children.map((child) => nextMessage(child, 'done'));
		// Every process gets its work in the same tick (the files are written): they start together.
		children.forEach((child, part) => child.send({ type: 'run', workloadFile: join(work, `workload-${part}.json`), resultFile: resultFiles[part] }));
		await Promise.all(done);
		const results = resultFiles.map((file) => JSON.parse(readFileSync(file, 'utf8')) as ClientResult);
		const result = combined(results);

		// Requests of the prior runs (workload.priorRuns) are not the measured run's.
		const log = (await admin.requests()).filter((entry) => Date.parse(entry.at) >= result.startedAt);
		// BENCH_LOG_DIR=<dir>: each run's request timeline (ms after the first request, method, path, status).
		if (process.env.BENCH_LOG_DIR) {
			const first = Math.min(...log.map((entry) => Date.parse(entry.at)));
			const lines = log.map((entry) => `${Date.parse(entry.at) - first}\t${entry.method}\t${entry.path}\t${entry.status}`);
			writeFileSync(join(process.env.BENCH_LOG_DIR, `${scenario.id}-${Date.now()}.tsv`), `${lines.join('\n')}\n`);
		}
		await admin.clearRateLimit();
		await admin.clearLatency();
		const lost = await workload.lost(result, admin);
		const row = measure(scenario, log, result, lost, workload.minRequests);
		const judgement = workload.judge?.(log);
		if (judgement) {
			row.notes.push(...judgement.notes);
			row.ownTargets = judgement.targets;
		}
		if (scenario.processes !== undefined) row.processes = processShares(log, parts, results);
		return row;
	} finally {
		await Promise.all(children.map((child) => stop(child)));
	}
}

/** Several processes' results as one run's: from the first start to the last end, CPU and outputs summed. */
function combined(results: ClientResult[]): ClientResult {
	if (results.length === 1) return results[0];
	const startedAt = Math.min(...results.map((r) => r.startedAt));
	return {
		startedAt,
		wallMs: Math.max(...results.map((r) => r.startedAt + r.wallMs)) - startedAt,
		cpuMs: results.reduce((sum, r) => sum + r.cpuMs, 0),
		error: results.find((r) => r.error !== undefined)?.error,
		outputs: results.flatMap((r) => r.outputs),
		peakRssMb: Math.max(...results.map((r) => r.peakRssMb)),
	};
}

/** The row of a scenario's repeats: the median wall time; items lost in any repeat count (a median hides nothing there). */
function summarize(rows: Row[]): Row {
	const sorted = [...rows].sort((a, b) => a.wallMs - b.wallMs);
	const median = sorted[Math.floor((sorted.length - 1) / 2)];
	return { ...median, lost: Math.max(...rows.map((row) => row.lost)), walls: rows.map((row) => row.wallMs) };
}

/**
 * Runs `scenarios` (a scenario and the one it is compared with, or one alone) `repeat` times, alternating
 * between them, so a change in the machine's load during the runs weighs on both alike.
 */
async function runGroup(sandbox: RunningSandbox, scenarios: Scenario[]): Promise<Row[]> {
	const runs = new Map<Scenario, Row[]>(scenarios.map((scenario) => [scenario, []]));
	const rounds = Math.max(...scenarios.map((scenario) => scenario.repeat ?? 1));
	for (let round = 0; round < rounds; round++) {
		for (const scenario of scenarios) {
			if (round >= (scenario.repeat ?? 1)) continue;
			console.error(`[bench] ${scenario.id}${rounds > 1 ? ` (run ${round + 1})` : ''} …`);
			const row = await runOnce(sandbox, scenario);
			console.error(
				`[bench] ${scenario.id}: ${row.requests} requests, ${row.tooMany} 429s (${row.late} late), ${row.lost} lost, ` +
					`${(row.wallMs / 1000).toFixed(1)} s (first request after ${(row.firstRequestMs / 1000).toFixed(1)} s, client CPU ${(row.cpuMs / 1000).toFixed(1)} s, peak RSS ${row.peakRssMb.toFixed(0)} MB; ${row.notes.join('; ')})` +
					(row.processes ? `; per process: ${row.processes.map((p) => `${p.requests} req (${p.tooMany} 429s) ${(p.wallMs / 1000).toFixed(1)} s CPU ${(p.cpuMs / 1000).toFixed(1)} s`).join(' | ')}` : ''),
			);
			runs.get(scenario)!.push(row);
		}
	}
	return scenarios.map((scenario) => summarize(runs.get(scenario)!));
}

/** The selected scenarios in order, each one compared with another grouped with it. */
function groups(scenarios: Scenario[]): Scenario[][] {
	const grouped: Scenario[][] = [];
	const placed = new Set<Scenario>();
	for (const scenario of scenarios) {
		if (placed.has(scenario)) continue;
		const partner = scenarios.find((other) => other.id === scenario.compareTo?.id && !placed.has(other));
		const referrer = scenarios.find((other) => other.compareTo?.id === scenario.id && !placed.has(other));
		const group = partner ? [partner, scenario] : referrer ? [scenario, referrer] : [scenario];
		group.forEach((member) => placed.add(member));
		grouped.push(group);
	}
	return grouped;
}

function selected(filters: string[]): Scenario[] {
	if (filters.length === 0) return SCENARIOS;
	const wanted = new Set(SCENARIOS.filter((s) => filters.some((f) => s.id.includes(f))).map((s) => s.id));
	// A scenario compared with another needs that one's figures too.
	for (const s of SCENARIOS) if (wanted.has(s.id) && s.compareTo) wanted.add(s.compareTo.id);
	return SCENARIOS.filter((s) => wanted.has(s.id));
}

function resultsMarkdown(table: string, rows: Row[], startedAt: Date, totalMs: number, pending: Scenario[]): string {
	const notes = rows.flatMap((row) => row.notes.map((note) => `- ${row.scenario.title}: ${note}`));
	const status =
		pending.length > 0
			? `**Run in progress or stopped** after ${(totalMs / 60_000).toFixed(1)} min; not run yet: ${pending.map((s) => s.id).join(', ')}.`
			: `The whole run took ${(totalMs / 60_000).toFixed(1)} min.`;
	return `# Bench results

Written by \`npm run bench\` (bench/run.ts), started ${startedAt.toISOString()}. ${status}
Machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average at the end ${loadavg().map((n) => n.toFixed(1)).join(' / ')}, Node ${process.version}.

${table}

Notes (a workflow error or error output items would be listed here too):\n${notes.join('\n')}\n
## How it is measured

- Each scenario runs once (the no-limit ones 3 times, the median shown) against a fresh, unseeded sandbox
  (\`test/sandbox\`, in the bench's own process) that holds just the scenario's items (\`seedItems\`), with a
  token bucket per client (\`setRateLimit\`: rate, burst = rate, \`Retry-After\` in whole seconds, or none).
- The workflow runs through n8n-core 2.41.1's real \`WorkflowExecute\` and \`RoutingNode\` (\`test/harness\`) in a
  separate client process (bench/client.ts), with the node setting "On Error: Continue" so a failed item is
  counted instead of stopping the run. Before the limit is set, the client runs one Vendor → Get (n8n and
  the package load, the credential gets its token); the wall time is n8n's execution of the scenario's workflow.
- **requests**, **429s**: every API request the sandbox logged during the run. **late 429s**: 429s that arrived
  more than 2 s after the run's first request, and their share of all requests (target ≤ 5 %).
- **items lost**: input items the sandbox does not show done afterwards (Update, Upsert: the new price stored;
  Create: the SKU exists), or, for Return All, seeded records missing from the output. Target 0.
- **floor**: the fewest requests the work needs (Update: one PATCH per item; Upsert of existing items: a GET by
  SKU and a PATCH per row; Create: one POST per 500 items; Return All: one GET per 100 records) divided by the
  rate. Target wall ≤ 1.2 × floor. (The first \`burst\` requests are free, so a perfect client is a little
  under the floor.)
- **n8n before the 1st request**: from the start of the execution to the first request reaching the sandbox.
  Under Continue On Fail (as here) Update reads each item just before sending it and Create sends a batch as
  soon as it holds 500 items, so reading thousands of items (n8n evaluates every expression) overlaps with the
  pace. (The code before the transport had Update declarative: n8n's RoutingNode evaluated every parameter up to
  three times per item and built all 2,000 requests, 20–30 s of CPU, before the first left.) **from the 1st
  request / floor** is the rest of the wall time over the floor: the part the transport paces (✅ when ≤ 1.2).
- **No limit**: the same Update against a sandbox without limit that answers every request after 20 ms, with
  this code and with the code before the shared transport, commit bd6bbb8 (\`git archive\` of that commit into
  a temp folder with this tree's node_modules linked, its own \`test/harness\` running its own node sources in
  the client process: bench/code-tree.ts), 3 runs each, alternating, the median shown. Target: this code's
  wall ≤ 1.05 × the old code's. The client's CPU time is shown beside it (it moves less with the machine's load).
- The machine's CPUs are shared with other work (see the load average above): CPU-bound parts (n8n reading
  thousands of items, the no-limit runs) move by tens of per cent from run to run; the paced parts much less.
`;
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const write = args.includes('--write');
	const filters = args.filter((arg) => arg !== '--write');
	const scenarios = selected(filters);
	// Issue 30's export bench has its own client and table (bench/export-file).
	const exportWanted = filters.length === 0 || filters.some((filter) => EXPORT_BENCH_ID.includes(filter));
	// Issue 38's Item Trigger poll bench too (bench/item-trigger-poll).
	const pollWanted = filters.length === 0 || filters.some((filter) => POLL_BENCH_ID.includes(filter));
	if (scenarios.length === 0 && !exportWanted && !pollWanted) {
		throw new Error(`No scenario matches ${filters.join(', ')}; ids: ${[...SCENARIOS.map((s) => s.id), EXPORT_BENCH_ID, POLL_BENCH_ID].join(', ')}`);
	}

	const startedAt = new Date();
	const sandbox = await startSandbox({ port: 0, seed: false });
	const rows: Row[] = [];
	let exportTable = '';
	let pollTable = '';
	const publish = (final: boolean) => {
		for (const row of rows) {
			const compare = row.scenario.compareTo;
			if (compare) row.compared = rows.find((other) => other.scenario.id === compare.id);
		}
		const single = rows.filter((row) => row.scenario.processes === undefined);
		const multi = rows.filter((row) => row.scenario.processes !== undefined);
		const table = [single.length > 0 ? markdownTable(single) : '', multi.length > 0 ? processesTable(multi) : '', exportTable, pollTable].filter(Boolean).join('\n\n');
		if (filters.length === 0 || write) {
			// Written after every scenario too, so a long run that is stopped still leaves its figures.
			const pending = final ? [] : scenarios.filter((scenario) => !rows.some((row) => row.scenario === scenario));
			writeFileSync(join(__dirname, 'results.md'), resultsMarkdown(table, rows, startedAt, Date.now() - startedAt.getTime(), pending));
		}
		return table;
	};
	try {
		for (const group of groups(scenarios)) {
			rows.push(...(await runGroup(sandbox, group)));
			publish(false);
		}
		if (exportWanted) exportTable = await runExportBench(sandbox);
		if (pollWanted) pollTable = await runPollBench(sandbox);
	} finally {
		await sandbox.close();
		rmSync(work, { recursive: true, force: true });
	}
	console.log(publish(true));
	if (filters.length === 0 || write) console.error('[bench] written to bench/results.md');
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
