/**
 * The n8n side of the "export N records to a file" bench, in its own process (index.ts forks one per measurement):
 * - `floor`: a plain fetch loop over the same pages (page_size 100, following the cursor), nothing kept;
 * - `floor-n8n`: the same loop through n8n's own HTTP client (see readWithN8nHttp);
 * - `export`: Item → Get Many, Return All, Output: File through n8n's real engine (test/harness) with n8n's
 *   filesystem binary storage (2.x's default outside queue mode), then the parts read back from that storage.
 * Protocol: argv = mode, then one JSON line of arguments on stdin is replaced by IPC: parent → {sandbox, records,
 * maxPartSizeMb}; child → {type: 'result', ...}.
 */
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';

import * as harness from '../../test/harness';
import { bearerToken, cpuMsSince, readWithFetch, readWithN8nHttp, type PageReader } from '../pageReaders';

export interface ExportBenchRequest {
	sandbox: { baseUrl: string; authUrl: string; clientId: string; clientSecret: string };
	maxPartSizeMb: number;
}

export interface ExportBenchResult {
	wallMs: number;
	/** The process's CPU time over the same span as wallMs (user + system). */
	cpuMs?: number;
	/** RSS once n8n, the package and the credential's token are loaded, before the run (MB). */
	idleRssMb: number;
	/** The process's peak RSS (its whole life, so the warm-up counts too: never under the run's own peak), MB. */
	peakRssMb: number;
	requests?: number;
	records: number;
	/** Records read back from the stored parts, and how many distinct item ids among them. */
	readBack?: { lines: number; distinctIds: number; parts: number };
	error?: string;
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const NODE_NAME = 'Consignment Vendor';

async function floor(request: ExportBenchRequest, readPage: PageReader): Promise<ExportBenchResult> {
	const { sandbox } = request;
	const token = await bearerToken(sandbox);
	const idleRssMb = mb(process.memoryUsage().rss);
	const started = performance.now();
	const cpuBefore = process.cpuUsage();
	let records = 0;
	let requests = 0;
	let after: string | undefined;
	for (;;) {
		const query = new URLSearchParams({ validation_status: 'approved', page_size: '100', ...(after ? { after } : {}) });
		const body = await readPage(`${sandbox.baseUrl}/v1/items?${query.toString()}`, token);
		requests++;
		records += body.products.length;
		if (!body.page_info.has_next_page) break;
		after = body.page_info.end_cursor;
	}
	return { wallMs: performance.now() - started, cpuMs: cpuMsSince(cpuBefore), idleRssMb, peakRssMb: process.resourceUsage().maxRSS / 1024, requests, records };
}

/** Counts lines and distinct item ids of the stored CSV parts, streaming (the check must not need the file in memory). */
async function readBack(parts: Array<{ binary: import('n8n-workflow').IBinaryData }>) {
	const service = Container.get(BinaryDataService);
	const ids = new Set<number>();
	let lines = 0;
	for (const { binary } of parts) {
		const stream = await service.getAsStream(binary.id!);
		let header: string[] | undefined;
		for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
			if (!header) {
				header = line.replace(/^\uFEFF/, '').split(',');
				continue;
			}
			lines++;
			ids.add(Number(line.split(',')[header.indexOf('item_id')]));
		}
	}
	return { lines, distinctIds: ids.size, parts: parts.length };
}

async function exportRun(request: ExportBenchRequest): Promise<ExportBenchResult> {
	const storage = mkdtempSync(join(tmpdir(), 'bench-binary-'));
	try {
		await harness.useFilesystemBinaryData(storage);
		const store = new harness.CredentialStore([harness.sandboxCredential(request.sandbox)]);
		const run = async (parameters: import('n8n-workflow').INodeParameters) =>
			await harness.runWorkflow(
				harness.buildWorkflow({ type: harness.packageNodeType('consignmentVendor'), name: NODE_NAME, parameters, credential: store.get('cred-1') }),
				{ credentials: store, inputItems: [{}] },
			);
		const warm = await run({ resource: 'vendor', operation: 'get' });
		if (warm.error) throw new Error(`warm-up failed: ${warm.error.message}`);
		const idleRssMb = mb(process.memoryUsage().rss);
		const started = performance.now();
		const cpuBefore = process.cpuUsage();
		const exportAll = { resource: 'item', operation: 'getAll', validationStatus: 'approved', returnAll: true, simplify: true, output: 'file' };
		const result = await run({ ...exportAll, fileFormat: 'csv', maxPartSizeMb: request.maxPartSizeMb });
		const wallMs = performance.now() - started;
		const cpuMs = cpuMsSince(cpuBefore);
		const peakRssMb = process.resourceUsage().maxRSS / 1024;
		const items = result.outputs[NODE_NAME]?.[0] ?? [];
		const records = items.reduce((sum, item) => sum + Number(item.json.records ?? 0), 0);
		if (result.error) return { wallMs, cpuMs, idleRssMb, peakRssMb, records, error: result.error.message };
		const parts = items.map((item) => ({ binary: item.binary!.data }));
		return { wallMs, cpuMs, idleRssMb, peakRssMb, records, readBack: await readBack(parts) };
	} finally {
		rmSync(storage, { recursive: true, force: true });
	}
}

/**
 * BENCH_ALLOC_PROF=<dir>: a sampling profile of every allocation the run makes, collected or not (what the CPU
 * profile's GC time is made of), written as <dir>/<mode>-<pid>.heapprofile (open it in Chrome's DevTools).
 */
async function withAllocationProfile<T>(mode: string, run: () => Promise<T>): Promise<T> {
	const dir = process.env.BENCH_ALLOC_PROF;
	if (!dir) return await run();
	const session = new Session();
	session.connect();
	await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
	try {
		return await run();
	} finally {
		const { profile } = await session.post('HeapProfiler.stopSampling');
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, `${mode}-${process.pid}.heapprofile`), JSON.stringify(profile));
		session.disconnect();
	}
}

process.once('message', (request: ExportBenchRequest) => {
	const mode = process.argv[2];
	const run = withAllocationProfile(mode, async () =>
		mode === 'floor' ? await floor(request, readWithFetch) : mode === 'floor-n8n' ? await floor(request, readWithN8nHttp) : await exportRun(request),
	);
	run
		.then((result) => process.send?.({ type: 'result', result }))
		.catch((error: unknown) => process.send?.({ type: 'result', result: { error: (error as Error).stack ?? String(error) } }))
		.finally(() => process.disconnect());
});
