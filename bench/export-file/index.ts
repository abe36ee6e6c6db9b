/**
 * Issue 30's bench: "export N records to a file". Seeds N approved items (default 1,000,000; BENCH_EXPORT_N),
 * then in two fresh client processes: the floor (a plain fetch loop over the same 100-record pages) and the
 * export (Output: File, CSV, through n8n's engine with filesystem binary storage, the parts read back).
 * Targets: peak RSS growth over the idle process ≤ 100 MB, wall ≤ 1.2 × the floor, every record read back once.
 * Run with n8n's heap capped at 256 MB (`--max-old-space-size=256`, the small n8n) and with Node's default
 * heap: the export holds about a page, but with room V8 lets garbage (the pages already written) pile up before
 * collecting it, so the default heap's peak shows V8's appetite more than what the export keeps; the floor runs
 * with the same heap setting each time.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';

import type { RunningSandbox } from '../../test/sandbox';
import type { ExportBenchRequest, ExportBenchResult } from './client';

export const EXPORT_BENCH_ID = 'export-file';
const MAX_RSS_GROWTH_MB = 100;
const WALL_FACTOR = 1.2;
/** Issue 38: the export within 1.15 × n8n's own client loop, and its peak RSS growth within 50 MB of that loop's. */
const N8N_LOOP_WALL_FACTOR = 1.15;
const N8N_LOOP_RSS_MARGIN_MB = 50;

function runClient(mode: 'floor' | 'floor-n8n' | 'export', request: ExportBenchRequest, heapMb?: number): Promise<ExportBenchResult> {
	return new Promise((resolve, reject) => {
		const child = fork(join(__dirname, 'client.ts'), [mode], {
			execArgv: [
				'-r',
				'ts-node/register/transpile-only',
				...(heapMb ? [`--max-old-space-size=${heapMb}`] : []),
				...(process.env.BENCH_EXPORT_ARGS ? process.env.BENCH_EXPORT_ARGS.split(/\s+/).filter(Boolean) : []),
				...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
			],
			env: { ...process.env, N8N_LOG_LEVEL: 'silent' },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let result: ExportBenchResult | undefined;
		child.on('message', (message: { type: string; result: ExportBenchResult }) => (result = message.result));
		child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`export bench client (${mode}) exited ${code} without a result`))));
		child.send(request);
	});
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export async function runExportBench(sandbox: RunningSandbox): Promise<string> {
	const records = Number(process.env.BENCH_EXPORT_N ?? 1_000_000);
	const repeats = Number(process.env.BENCH_EXPORT_REPEAT ?? 5);
	if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`BENCH_EXPORT_REPEAT must be a whole number of runs, at least 1, got ${process.env.BENCH_EXPORT_REPEAT}`);
	await sandbox.admin.reset();
	// The bench sandbox starts unseeded, so the approved listing holds exactly these.
	await sandbox.admin.seedManyItems({ count: records, status: 'approved', skuPrefix: 'EXP-' });
	const request: ExportBenchRequest = {
		sandbox: { baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
		maxPartSizeMb: Number(process.env.BENCH_EXPORT_PART_MB ?? 50),
	};
	const rows = [];
	for (const heapMb of [256, undefined]) rows.push(await runRow(sandbox, request, records, repeats, heapMb));
	return [
		`Each figure is the median of ${repeats} runs, each measuring in turn the fetch loop, n8n's client loop and the export (on 2 cores wall times move by 10-30 % from run to run); the ratios are the medians of each run's own ratios (the export against the loops measured just before it); peak RSS growth is the largest of the runs.`,
		'',
		'| scenario | requests | records written | read back (lines / distinct ids / parts) | wall (client CPU) | floor: plain fetch loop | wall / floor | n8n HTTP client loop (its RSS growth) | wall / n8n loop | idle RSS | peak RSS growth | targets |',
		'|---|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|---|',
		...rows,
	].join('\n');
}

interface Measured {
	floor: ExportBenchResult;
	n8nLoop: ExportBenchResult;
	run: ExportBenchResult;
	requests: number;
}

async function measureOnce(sandbox: RunningSandbox, request: ExportBenchRequest, heapMb: number | undefined): Promise<Measured> {
	const floor = await runClient('floor', request, heapMb);
	const n8nLoop = await runClient('floor-n8n', request, heapMb);
	await sandbox.admin.clearRequests();
	const run = await runClient('export', request, heapMb);
	const requests = (await sandbox.admin.requests()).filter((entry) => entry.path.startsWith('/v1/items')).length;
	console.error(`[bench] ${EXPORT_BENCH_ID}: ${JSON.stringify({ floor, n8nLoop, run, requests })}`);
	return { floor, n8nLoop, run, requests };
}

async function runRow(sandbox: RunningSandbox, request: ExportBenchRequest, records: number, repeats: number, heapMb: number | undefined): Promise<string> {
	const heap = heapMb ? `heap capped at ${heapMb} MB` : "Node's default heap";
	const runs: Measured[] = [];
	for (let i = 1; i <= repeats; i++) {
		console.error(`[bench] ${EXPORT_BENCH_ID} (${heap}), run ${i} of ${repeats}: plain fetch loop, n8n HTTP client loop, export of ${records} records …`);
		runs.push(await measureOnce(sandbox, request, heapMb));
	}
	const wall = median(runs.map(({ run }) => run.wallMs));
	const cpu = median(runs.map(({ run }) => run.cpuMs ?? 0));
	const floor = median(runs.map(({ floor }) => floor.wallMs));
	const n8nLoop = median(runs.map(({ n8nLoop }) => n8nLoop.wallMs));
	// The machine's speed drifts over minutes: each export is compared with the loops run just before it.
	const overFloor = median(runs.map(({ run, floor }) => run.wallMs / floor.wallMs));
	const overN8nLoop = median(runs.map(({ run, n8nLoop }) => run.wallMs / n8nLoop.wallMs));
	const growth = Math.max(...runs.map(({ run }) => run.peakRssMb - run.idleRssMb));
	const n8nLoopGrowth = Math.max(...runs.map(({ n8nLoop }) => n8nLoop.peakRssMb - n8nLoop.idleRssMb));
	const idle = median(runs.map(({ run }) => run.idleRssMb));
	const last = runs[runs.length - 1];
	const complete = runs.every(({ run }) => run.readBack?.lines === records && run.readBack.distinctIds === records && run.records === records);
	const targets = [
		`${growth <= MAX_RSS_GROWTH_MB ? '✅' : '❌'} RSS growth ≤ ${MAX_RSS_GROWTH_MB} MB`,
		`${overFloor <= WALL_FACTOR ? '✅' : '❌'} wall ≤ ${WALL_FACTOR}×floor`,
		`${overN8nLoop <= N8N_LOOP_WALL_FACTOR ? '✅' : '❌'} wall ≤ ${N8N_LOOP_WALL_FACTOR}×n8n loop`,
		`${growth <= n8nLoopGrowth + N8N_LOOP_RSS_MARGIN_MB ? '✅' : '❌'} RSS growth ≤ n8n loop's + ${N8N_LOOP_RSS_MARGIN_MB} MB`,
		`${complete ? '✅' : '❌'} every record once`,
	].join('<br>');
	const readBack = last.run.readBack ? `${last.run.readBack.lines} / ${last.run.readBack.distinctIds} / ${last.run.readBack.parts}` : `– (${last.run.error ?? 'no read-back'})`;
	return `| Export ${records.toLocaleString('en-US')} records to a file (CSV, Simplify, parts ≤ ${request.maxPartSizeMb} MB, filesystem binary mode, ${heap}) | ${last.requests} | ${last.run.records} | ${readBack} | ${seconds(wall)} (${seconds(cpu)}) | ${seconds(floor)} | ${overFloor.toFixed(2)} | ${seconds(n8nLoop)} (${n8nLoopGrowth.toFixed(0)} MB) | ${overN8nLoop.toFixed(2)} | ${idle.toFixed(0)} MB | ${growth.toFixed(0)} MB | ${targets} |`;
}
