/**
 * Issue 38 (1): the Item Trigger's scheduled poll against its floor. Seeds 20,000 items (5,000 non-approved, 15,000
 * approved: the catalogue), answers every request 20 ms late, then in fresh client processes (client.ts),
 * repeated BENCH_POLL_REPEAT times (default 3), alternating: the two listings read by a plain fetch loop and by n8n's
 * own HTTP client, one after the other and side by side, and the trigger's scheduled poll in n8n's poll context.
 * Target: the poll ≤ 1.3 × the n8n-client loop (the faster of its two ways), announcing nothing (nothing changed).
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';

import type { RunningSandbox } from '../../test/sandbox';
import type { PollBenchRequest, PollBenchResult } from './client';

export const POLL_BENCH_ID = 'item-trigger-poll';
const NON_APPROVED = 5_000;
const APPROVED = 15_000;
const LATENCY_MS = 20;
const FACTOR = 1.3;
const MODES = ['fetch-sequential', 'fetch-side-by-side', 'n8n-sequential', 'n8n-side-by-side', 'poll'] as const;
type Mode = (typeof MODES)[number];

function runClient(mode: Mode, request: PollBenchRequest): Promise<PollBenchResult> {
	return new Promise((resolve, reject) => {
		const child = fork(join(__dirname, 'client.ts'), [mode], {
			execArgv: [
				'-r',
				'ts-node/register/transpile-only',
				...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
			],
			env: { ...process.env, N8N_LOG_LEVEL: 'silent' },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let result: PollBenchResult | undefined;
		child.on('message', (message: { type: string; result: PollBenchResult }) => (result = message.result));
		child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`poll bench client (${mode}) exited ${code} without a result`))));
		child.send(request);
	});
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export async function runPollBench(sandbox: RunningSandbox): Promise<string> {
	const repeats = Number(process.env.BENCH_POLL_REPEAT ?? 3);
	if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`BENCH_POLL_REPEAT must be a whole number of runs, at least 1, got ${process.env.BENCH_POLL_REPEAT}`);
	await sandbox.admin.reset();
	await sandbox.admin.seedManyItems({ count: NON_APPROVED, status: 'pending', skuPrefix: 'POLL-P-' });
	await sandbox.admin.seedManyItems({ count: APPROVED, status: 'approved', skuPrefix: 'POLL-A-' });
	// Made before the trigger is activated (beyond its clock margin): the measured poll compares, it does not flood.
	await sandbox.admin.advanceClock(600);
	await sandbox.admin.setLatency(LATENCY_MS);
	const request: PollBenchRequest = {
		sandbox: { baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
	};
	const runs = new Map<Mode, PollBenchResult[]>(MODES.map((mode) => [mode, []]));
	try {
		for (let i = 1; i <= repeats; i++) {
			for (const mode of MODES) {
				console.error(`[bench] ${POLL_BENCH_ID}, run ${i} of ${repeats}: ${mode} …`);
				const result = await runClient(mode, request);
				console.error(`[bench] ${POLL_BENCH_ID} ${mode}: ${JSON.stringify(result)}`);
				runs.get(mode)!.push(result);
			}
		}
	} finally {
		await sandbox.admin.clearLatency();
	}
	const wall = (mode: Mode) => median(runs.get(mode)!.map((r) => r.wallMs));
	const poll = runs.get('poll')!;
	const n8nFloor = Math.min(wall('n8n-sequential'), wall('n8n-side-by-side'));
	const quiet = poll.every((r) => r.error === undefined && r.announced === 0);
	const pollWall = wall('poll');
	const targets = [`${pollWall / n8nFloor <= FACTOR ? '✅' : '❌'} poll ≤ ${FACTOR}×n8n-client floor`, `${quiet ? '✅' : '❌'} nothing announced, no error`].join('<br>');
	const cpu = median(poll.map((r) => r.cpuMs));
	return [
		`Item Trigger scheduled poll (issue 38): ${NON_APPROVED.toLocaleString('en-US')} non-approved + ${APPROVED.toLocaleString('en-US')} approved items, ${LATENCY_MS} ms per request; each figure the median of ${repeats} runs, alternating.`,
		'',
		'| scenario | requests | poll wall (client CPU) | fetch: one after the other / side by side | n8n client: one after the other / side by side | poll / n8n-client floor | targets |',
		'|---|--:|--:|--:|--:|--:|---|',
		`| Item Trigger scheduled poll of 20,000 items @ ${LATENCY_MS} ms | ${poll.at(-1)?.requests ?? '–'} | ${seconds(pollWall)} (${seconds(cpu)}) | ${seconds(wall('fetch-sequential'))} / ${seconds(wall('fetch-side-by-side'))} | ${seconds(wall('n8n-sequential'))} / ${seconds(wall('n8n-side-by-side'))} | ${(pollWall / n8nFloor).toFixed(2)} | ${targets} |`,
	].join('\n');
}
