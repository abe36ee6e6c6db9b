/**
 * For comparing variants of the export by hand: seeds BENCH_EXPORT_N approved items (default 200,000), then runs n8n's
 * client loop and the export once per variant, in fresh client processes, alternating, BENCH_EXPORT_REPEAT times
 * (default 5), heap capped at 256 MB; prints each run's walls and CPU times against the loop's, and their medians.
 * A variant (`BENCH_VARIANTS=HEAD~1,work`) is a commit, its code exported by code-tree.ts, or `work`, this working
 * tree, either followed by `:NAME=value` settings for the client's environment (`work:BENCH_PACKAGE=dist`).
 * `BENCH_VARIANTS=HEAD,work npx ts-node --transpile-only bench/export-file/alternate.ts`
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';

import { startSandbox } from '../../test/sandbox';
import { codeTree } from '../code-tree';
import type { ExportBenchRequest, ExportBenchResult } from './client';

function runClient(mode: string, request: ExportBenchRequest, variant: string): Promise<ExportBenchResult> {
	const [revision, ...settings] = variant.split(':');
	const tree = codeTree(revision === 'work' ? undefined : revision);
	const env = Object.fromEntries(settings.map((setting) => setting.split('=') as [string, string]));
	return new Promise((resolve, reject) => {
		const child = fork(join(tree, 'bench', 'export-file', 'client.ts'), [mode], {
			execArgv: ['-r', 'ts-node/register/transpile-only', '--max-old-space-size=256'],
			env: { ...process.env, ...env, N8N_LOG_LEVEL: 'silent' },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let result: ExportBenchResult | undefined;
		child.on('message', (message: { result: ExportBenchResult }) => (result = message.result));
		child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`client (${mode}) exited ${code}`))));
		child.send(request);
	});
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
	const records = Number(process.env.BENCH_EXPORT_N ?? 200_000);
	const repeats = Number(process.env.BENCH_EXPORT_REPEAT ?? 5);
	const variants = (process.env.BENCH_VARIANTS ?? 'HEAD,work').split(',');
	const sandbox = await startSandbox({ port: 0, seed: false });
	try {
		await sandbox.admin.seedManyItems({ count: records, status: 'approved', skuPrefix: 'EXP-' });
		const request: ExportBenchRequest = {
			sandbox: { baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret },
			maxPartSizeMb: 50,
		};
		const ratios = new Map<string, number[]>(variants.map((variant) => [variant, []]));
		const cpuRatios = new Map<string, number[]>(variants.map((variant) => [variant, []]));
		for (let run = 1; run <= repeats; run++) {
			const loop = await runClient('floor-n8n', request, 'work');
			const line = [`run ${run}: loop ${(loop.wallMs / 1000).toFixed(2)} s`];
			for (const variant of variants) {
				const result = await runClient('export', request, variant);
				if (result.error || result.readBack?.lines !== records) throw new Error(`variant ${variant}: ${result.error ?? JSON.stringify(result.readBack)}`);
				ratios.get(variant)!.push(result.wallMs / loop.wallMs);
				cpuRatios.get(variant)!.push(result.cpuMs! / loop.cpuMs!);
				line.push(`${variant} ${(result.wallMs / 1000).toFixed(2)} s (${(result.wallMs / loop.wallMs).toFixed(3)}; CPU ${(result.cpuMs! / loop.cpuMs!).toFixed(3)})`);
			}
			console.log(line.join(', '));
		}
		for (const [variant, values] of ratios) {
			console.log(`${variant}: median export / loop: wall ${median(values).toFixed(3)}, CPU ${median(cpuRatios.get(variant)!).toFixed(3)}`);
		}
	} finally {
		await sandbox.close();
	}
}

void main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
