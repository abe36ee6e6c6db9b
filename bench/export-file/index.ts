/**
 * Issue 30's bench: "export N records to a file". Seeds N approved items (default 1,000,000; BENCH_EXPORT_N),
 * then in two fresh client processes: the floor (a plain fetch loop over the same 100-record pages) and the
 * export (Output: File, CSV, through n8n's engine with filesystem binary storage, the parts read back).
 * Targets: peak RSS growth over the idle process ≤ 100 MB, wall ≤ 1.2 × the floor, every record read back once.
 * Run with n8n's heap capped at 256 MB (`--max-old-space-size=256`, the issue's small n8n) and with Node's default
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

function runClient(mode: 'floor' | 'export', request: ExportBenchRequest, heapMb?: number): Promise<ExportBenchResult> {
	return new Promise((resolve, reject) => {
		const child = fork(join(__dirname, 'client.ts'), [mode], {
			execArgv: ['-r', 'ts-node/register/transpile-only', ...(heapMb ? [`--max-old-space-size=${heapMb}`] : [])],
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

export async function runExportBench(sandbox: RunningSandbox): Promise<string> {
	const records = Number(process.env.BENCH_EXPORT_N ?? 1_000_000);
	await sandbox.admin.reset();
	// The bench sandbox starts unseeded, so the approved listing holds exactly these.
	await sandbox.admin.seedManyItems({ count: records, status: 'approved', skuPrefix: 'EXP-' });
	const request: ExportBenchRequest = {
		sandbox: { baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
		maxPartSizeMb: Number(process.env.BENCH_EXPORT_PART_MB ?? 50),
	};
	const rows = [];
	for (const heapMb of [256, undefined]) rows.push(await runRow(sandbox, request, records, heapMb));
	return [
		'| scenario | requests | records written | read back (lines / distinct ids / parts) | wall | floor (plain fetch loop) | wall / floor | idle RSS | peak RSS | peak RSS growth | targets |',
		'|---|---|---|---|---|---|---|---|---|---|---|',
		...rows,
	].join('\n');
}

async function runRow(sandbox: RunningSandbox, request: ExportBenchRequest, records: number, heapMb: number | undefined): Promise<string> {
	const heap = heapMb ? `heap capped at ${heapMb} MB` : "Node's default heap";
	console.error(`[bench] ${EXPORT_BENCH_ID} (${heap}): floor (plain fetch loop over ${records} records) …`);
	const floor = await runClient('floor', request, heapMb);
	console.error(`[bench] ${EXPORT_BENCH_ID}: floor ${seconds(floor.wallMs)}, ${floor.requests} requests; export …`);
	await sandbox.admin.clearRequests();
	const run = await runClient('export', request, heapMb);
	const requests = (await sandbox.admin.requests()).filter((entry) => entry.path.startsWith('/v1/items')).length;
	const growth = run.peakRssMb - run.idleRssMb;
	const ratio = run.wallMs / floor.wallMs;
	const complete = run.readBack?.lines === records && run.readBack.distinctIds === records && run.records === records;
	const targets = [
		`${growth <= MAX_RSS_GROWTH_MB ? '✅' : '❌'} RSS growth ≤ ${MAX_RSS_GROWTH_MB} MB`,
		`${ratio <= WALL_FACTOR ? '✅' : '❌'} wall ≤ ${WALL_FACTOR}×floor`,
		`${complete ? '✅' : '❌'} every record once`,
	].join(', ');
	console.error(`[bench] ${EXPORT_BENCH_ID}: ${JSON.stringify({ floor, run, requests })}`);
	return `| Export ${records.toLocaleString('en-US')} records to a file (CSV, Simplify, parts ≤ ${request.maxPartSizeMb} MB, filesystem binary mode, ${heap}) | ${requests} | ${run.records} | ${run.readBack ? `${run.readBack.lines} / ${run.readBack.distinctIds} / ${run.readBack.parts}` : `– (${run.error ?? 'no read-back'})`} | ${seconds(run.wallMs)} | ${seconds(floor.wallMs)} | ${ratio.toFixed(2)} | ${run.idleRssMb.toFixed(0)} MB | ${run.peakRssMb.toFixed(0)} MB | ${growth.toFixed(0)} MB | ${targets} |`;
}
