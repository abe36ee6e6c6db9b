// Output: File with n8n's filesystem binary storage (2.x's default outside queue mode): the part is streamed into
// a file of n8n's storage (the item carries its id, not the bytes) and reads back whole, through n8n's engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { useFilesystemBinaryData } from '../harness';
import { readCsvPart } from './list-file.helpers';
import { runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();
const storage = mkdtempSync(join(tmpdir(), 'n8n-binary-'));

beforeAll(async () => await useFilesystemBinaryData(storage));
afterAll(() => rmSync(storage, { recursive: true, force: true }));

it('each part is a file in n8n\'s storage (an id, no bytes in the item), and the parts read back hold every record once', async () => {
	await sandbox().admin.seedManyItems({ count: 1_974, status: 'approved' });
	const { items: stored } = await sandbox().admin.state();
	const expected = stored.filter((i) => i.validation_status === 'approved').map((i) => i.item_id).sort((a, b) => a - b);
	const { result, items } = await runNode(sandbox(), {
		resource: 'item',
		operation: 'getAll',
		validationStatus: 'approved',
		returnAll: true,
		simplify: true,
		output: 'file',
		maxPartSizeMb: 0.1,
	});
	expect(result.error).toBeUndefined();
	expect(items.length).toBeGreaterThan(1);
	const ids: number[] = [];
	for (const item of items) {
		expect(item.binary!.data.id).toMatch(/^filesystem-v2:/);
		expect(item.binary!.data.data).toBe('filesystem-v2');
		const part = await readCsvPart(item);
		expect(part.records).toHaveLength(item.json.records as number);
		ids.push(...part.records.map((r) => Number(r.item_id)));
	}
	expect(ids).toEqual(expected);
});
