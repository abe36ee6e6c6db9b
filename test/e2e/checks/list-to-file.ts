// Issue 30 in real n8n: Item → Get Many, Return All, Output: File of 200,000 records with n8n's heap capped at
// 256 MB (`--max-old-space-size=256`, an n8n in a small container), in filesystem binary mode (2.x's default
// outside queue mode; set on 1.x, whose default keeps binary data in memory). The parts are read back from n8n's
// storage: every record exactly once. The same listing as items (Output: Items) under the same cap fails.
// Sized to what each run proves (issue 37): the memory bound and its control (Return All as items failing under the
// same cap) are the node's streaming, the same code on every version, proven once, on 2.x; that run takes ~4 min
// on 2 cores, most of it the control running out of memory. On 1.x the export runs under the same cap with fewer
// records, still several parts in 1.x's filesystem storage, each record read back once.
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { executeWorkflow, type N8nInstance, type OutputItem } from '../lib/n8n-cli';
import { apiRequests, expectEqual } from './expect';
import { fail, sandboxCheck, type Check } from './types';

/** The memory bound's size (2.x): as items, this listing does not fit in the capped heap. */
const RECORDS = 200_000;
/** 1.x: two parts of at most 5 MB (one part holds ~33,000 records). */
const RECORDS_V1 = 50_000;
const SEEDED_APPROVED = 26;
export const SMALL_HEAP_OPTION = '--max-old-space-size=256';

/** The instance's n8n with its heap capped at 256 MB and binary data in files under `storage`. */
export function smallN8n(instance: N8nInstance, storage: string): N8nInstance {
	return {
		...instance,
		env: {
			...instance.env,
			NODE_OPTIONS: [instance.env.NODE_OPTIONS, SMALL_HEAP_OPTION].filter(Boolean).join(' '),
			N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
			N8N_BINARY_DATA_STORAGE_PATH: storage,
		},
	};
}

/** 200,000 records with n8n near its heap cap take longer than a CLI command's usual 3 minutes on a busy machine. */
const EXECUTE_TIMEOUT_MS = 600_000;

/** Lines and distinct item ids of one stored CSV part, read as a stream. */
async function readPart(path: string, ids: Set<string>): Promise<number> {
	let header: string[] | undefined;
	let lines = 0;
	for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
		if (header === undefined) {
			if (!line.startsWith('\uFEFF')) fail(`${path}: a CSV part without its UTF-8 byte-order mark`);
			header = line.slice(1).split(',');
			if (header[1] !== 'item_id') fail(`${path}: header ${line.slice(1, 120)}`);
			continue;
		}
		lines++;
		ids.add(line.split(',')[1]);
	}
	return lines;
}

const exportUnderSmallHeap = sandboxCheck('cli', `list to file: 200,000 records to CSV parts with n8n's heap capped at 256 MB, every record read back once; Return All as items fails there (1.x: 50,000 records, the export only)`, async (ctx, admin) => {
	const v1 = ctx.version.startsWith('1.');
	const records = v1 ? RECORDS_V1 : RECORDS;
	await admin.reset();
	await admin.seedManyItems({ count: records - SEEDED_APPROVED, status: 'approved' });
	const storage = mkdtempSync(join(tmpdir(), 'e2e-binary-'));
	try {
		const small = smallN8n(ctx.instance, storage);
		await admin.clearRequests();
		const exported = await executeWorkflow(small, ctx.workflowId('item-export-to-file'), EXECUTE_TIMEOUT_MS);
		if (!exported.ok) fail(`the export failed under ${SMALL_HEAP_OPTION} after ${(exported.ms / 1000).toFixed(1)} s: ${exported.error?.message ?? ''}\n${exported.log}`);
		const pages = apiRequests(await admin.requests());
		expectEqual(pages.length, records / 100, 'GET /v1/items requests (pages of 100)');
		const parts = (exported.runData?.['Export approved items']?.[0]?.data?.main?.[0] ?? []) as OutputItem[];
		if (parts.length < 2) fail(`expected the ${records} records in several parts of at most 5 MB, got ${parts.length}`);
		const ids = new Set<string>();
		let lines = 0;
		for (const [index, part] of parts.entries()) {
			const binary = part.binary?.data;
			expectEqual([part.json.part, part.json.parts, binary?.fileName], [index + 1, parts.length, `approved-items-part-${index + 1}.csv`], `part ${index + 1}`);
			if (!binary?.id) fail(`part ${index + 1} is not in n8n's filesystem storage: ${JSON.stringify(binary).slice(0, 200)}`);
			const partLines = await readPart(join(storage, binary.id.slice(binary.id.indexOf(':') + 1)), ids);
			expectEqual(partLines, part.json.records, `records in part ${index + 1} (its JSON's count)`);
			lines += partLines;
		}
		expectEqual([lines, ids.size], [records, records], 'records read back from the parts, distinct item ids');
		const seen = `${records} records in ${parts.length} parts in ${(exported.ms / 1000).toFixed(1)} s under ${SMALL_HEAP_OPTION}, each once`;
		if (v1) return `${seen} (the memory bound and its control run on 2.x)`;

		const asItems = await executeWorkflow(small, ctx.workflowId('item-return-all-as-items'), EXECUTE_TIMEOUT_MS);
		if (asItems.ok) fail(`${seen}; but Return All as items also finished under ${SMALL_HEAP_OPTION}: the comparison shows nothing`);
		return `${seen}; Return All as items failed there after ${(asItems.ms / 1000).toFixed(1)} s (${/heap|memory/i.test(asItems.log) ? 'out of memory' : 'see the log'})`;
	} finally {
		rmSync(storage, { recursive: true, force: true });
	}
});

export const listToFileChecks: Check[] = [exportUnderSmallHeap];
