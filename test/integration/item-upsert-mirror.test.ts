// Create or Update as a mirror of its input ("Listed Items Not in the Input"), through n8n's engine against the
// sandbox: listed items no row has are set to 0 (each once) or reported, the guard stops an empty or truncated
// source before any write, Preview lists them, inputs that cannot be whole are refused, and both readings of the
// contract's rule on a non-approved item's PATCH (the sandbox's patch-policy knob).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { buildWorkflow, CredentialStore, packageNodeType, runWorkflow, sandboxCredential, type NodeSettings, type RunResult } from '../harness';
import type { RequestLogEntry } from '../sandbox';
import { itemWriteParameters, validItem } from './item-input';
import { isTokenExchange, NODE_NAME, outputOf, useSandbox } from './nodeRun.helpers';

// Without the demo data: the catalogue is exactly what each test seeds.
const sandboxOf = useSandbox({ seed: false });
let store: CredentialStore;
beforeEach(() => {
	store = new CredentialStore([sandboxCredential(sandboxOf())]);
});

/** Runs of 1,000 items through n8n's engine, several per test, on a machine shared with other test runs. */
const MIRROR_TIMEOUT_MS = 300_000;

const mirror = (extra: INodeParameters = {}): INodeParameters => itemWriteParameters('upsert', { missingItems: 'setQuantityToZero', ...extra });

async function run(parameters: INodeParameters, rows: IDataObject[], options: { staticData?: IDataObject; settings?: NodeSettings } = {}) {
	await sandboxOf().admin.clearRequests();
	const workflow = buildWorkflow({ type: packageNodeType('consignmentVendor'), name: NODE_NAME, parameters, credential: store.get('cred-1'), settings: options.settings });
	const result = await runWorkflow(workflow, { credentials: store, inputItems: rows, staticData: options.staticData, mode: 'trigger' });
	// A run with no API request for a while (a refused one) outlives the sandbox's keep-alive: fetch may meet a
	// socket the server closed, so the log is asked for again once.
	const logged = await sandboxOf().admin.requests().catch(async () => await sandboxOf().admin.requests());
	const requests = logged.filter((request) => !isTokenExchange(request));
	return { result, requests, writes: requests.filter((request) => request.method !== 'GET'), items: outputOf(result) };
}

const hintsOf = (result: RunResult) => (result.run.data.resultData.runData[NODE_NAME]?.[0]?.hints ?? []).map((hint) => hint.message);
const zeroings = (writes: RequestLogEntry[]) => writes.filter((w) => w.method === 'PATCH' && JSON.stringify(w.body) === '{"quantity":0}');
const itemIdOf = (write: RequestLogEntry) => Number(write.path.split('/').pop());

async function quantities(): Promise<Map<string, number>> {
	return new Map((await sandboxOf().admin.state()).items.map((item) => [item.vendor_sku, item.quantity]));
}

/** 1,000 approved items MIR-1..MIR-1000 (quantity 1); returns the item_id of each SKU. */
async function seedCatalogue(): Promise<Map<string, number>> {
	await sandboxOf().admin.seedManyItems({ count: 1_000, status: 'approved', skuPrefix: 'MIR-', firstNumber: 1 });
	return new Map((await sandboxOf().admin.state()).items.map((item) => [item.vendor_sku, item.item_id]));
}

/** Rows for MIR-1..MIR-n: approved items take nothing a row changes here, so the rows themselves write nothing. */
const rows = (n: number) => Array.from({ length: n }, (_, i) => validItem(i === 0 ? 'mir-1' : `MIR-${i + 1}`, { quantity: 1 }));

describe('Create or Update, Listed Items Not in the Input: Set Their Quantity to 0', () => {
	it('a catalogue of 1,000 and a source of 950 rows: the 50 others are set to 0, each once, nothing else written; a second run writes nothing', async () => {
		const ids = await seedCatalogue();
		const staticData: IDataObject = {};
		const first = await run(mirror(), rows(950), { staticData });
		expect(first.result.error).toBeUndefined();

		const expected = Array.from({ length: 50 }, (_, i) => ids.get(`MIR-${951 + i}`)).sort();
		expect(first.writes).toHaveLength(50);
		expect(zeroings(first.writes).map(itemIdOf).sort()).toEqual(expected);
		const stored = await quantities();
		expect([...stored].filter(([, quantity]) => quantity === 0).map(([sku]) => sku).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `MIR-${951 + i}`).sort());
		// "mir-1" keeps MIR-1: SKUs match ignoring case, as the service's filter and the rows' lookup do.
		expect(stored.get('MIR-1')).toBe(1);
		// The catalogue read only (10 pages of approved items, 1 of non-approved): no per-row lookup.
		expect(first.requests.filter((r) => r.method === 'GET')).toHaveLength(11);

		expect(first.items).toHaveLength(1_000);
		const extra = first.items.slice(950);
		expect(extra.every((item) => item.json.operation === 'set to 0' && item.json.missingFromInput === true)).toBe(true);
		expect(extra[0].json).toMatchObject({ vendor_sku: expect.stringMatching(/^MIR-/), item_id: expect.any(Number), validation_status: 'approved', quantity_before: null, status: 'updated' });
		expect(hintsOf(first.result)).toEqual(['1,000 items: 950 not applied · 50 set to 0']);

		// The approved listing shows no quantity: the workflow remembers the items it set to 0 (production runs).
		const second = await run(mirror(), rows(950), { staticData });
		expect(second.writes).toHaveLength(0);
		expect(second.items).toHaveLength(950);
	}, MIRROR_TIMEOUT_MS);

	it('with Only Send What Changed and every row unchanged, the listings are still read: the 50 missing are set to 0', async () => {
		await seedCatalogue();
		const staticData: IDataObject = {};
		const whole = await run(mirror({ onlySendWhatChanged: true }), rows(1_000), { staticData });
		expect(whole.writes).toHaveLength(0);
		const shorter = await run(mirror({ onlySendWhatChanged: true }), rows(950), { staticData });
		expect(shorter.items.slice(0, 950).every((item) => item.json.operation === 'unchanged')).toBe(true);
		expect(zeroings(shorter.writes)).toHaveLength(50);
		expect(shorter.writes).toHaveLength(50);
	}, MIRROR_TIMEOUT_MS);

	it('the guard stops a source of 500 rows before any write, naming the count and some SKUs', async () => {
		await seedCatalogue();
		const { result, writes } = await run(mirror(), rows(500));
		expect(writes).toHaveLength(0);
		expect(result.error?.message).toMatch(
			/^Stopped before any write: the run would set 500 of 1,000 items that could be set to 0 \(50\.0 %\), more than Max Missing Items \(250\) and Max Missing Percent \(10 %\); 0 listed items are already at 0, deleted or rejected and are not counted\. Vendor SKUs in no input row: MIR-\d+/,
		);
		expect((await quantities()).get('MIR-1000')).toBe(1);
	}, MIRROR_TIMEOUT_MS);

	it('the guard stops a source of 0 rows (a source node with Always Output Data passes one empty item) with no write', async () => {
		await seedCatalogue();
		const { result, writes } = await run(mirror(), [{}]);
		expect(writes).toHaveLength(0);
		expect(result.error?.message).toMatch(/^Stopped before any write: the run would set 1,000 of 1,000 items that could be set to 0 \(100\.0 %\)/);
	}, MIRROR_TIMEOUT_MS);

	it('the guard lets through what its limits allow: 50 of 1,000 with Max Missing Items 49 stops, with 50 goes', async () => {
		await seedCatalogue();
		const stopped = await run(mirror({ maxMissingItems: 49 }), rows(950));
		expect(stopped.writes).toHaveLength(0);
		expect(stopped.result.error?.message).toMatch(/more than Max Missing Items \(49\);/);
		const allowed = await run(mirror({ maxMissingItems: 50, maxMissingPercent: 5 }), rows(950));
		expect(allowed.result.error).toBeUndefined();
		expect(zeroings(allowed.writes)).toHaveLength(50);
	}, MIRROR_TIMEOUT_MS);

	it('Preview Only lists exactly the 50 items that would be set to 0 and writes nothing; a preview the guard would stop says so', async () => {
		await seedCatalogue();
		const preview = await run(mirror({ previewOnly: true }), rows(950));
		expect(preview.writes).toHaveLength(0);
		const listed = preview.items.slice(950);
		expect(listed).toHaveLength(50);
		expect(listed.map((item) => item.json.vendor_sku).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `MIR-${951 + i}`).sort());
		expect(listed.every((item) => item.json.operation === 'would set to 0')).toBe(true);
		expect(hintsOf(preview.result)).toEqual(['Preview (nothing was sent): 1,000 items: 950 not applied · 50 would set to 0']);

		const guarded = await run(mirror({ previewOnly: true }), rows(500));
		expect(guarded.result.error).toBeUndefined();
		expect(guarded.writes).toHaveLength(0);
		expect(guarded.items.slice(500)).toHaveLength(500);
		expect(guarded.items[500].json.guard).toMatch(/^Stopped before any write: the run would set 500 of 1,000 items that could be set to 0/);
	}, MIRROR_TIMEOUT_MS);

	it('a listing that cannot be read in full stops the run before any write (which items are missing is unknown)', async () => {
		await seedCatalogue();
		// Page 3 of the approved listing (after the non-approved page and approved page 1) is refused, every time.
		await sandboxOf().admin.addFault({ kind: 'status', status: 403, count: 100, pathPrefix: '/v1/items', skip: 2 });
		const { result, writes } = await run(mirror(), rows(950));
		expect(writes).toHaveLength(0);
		expect(result.error?.message).toMatch(/^Permission denied/);
		expect(String(result.error?.description)).toMatch(/^Nothing was created or changed: the item listings could not be read in full/);
	}, MIRROR_TIMEOUT_MS);

	it('months later, 1,800 approved items set to 0 beside 200 live: a source read of 100 of the live stops before any write, counting 100 of 200', async () => {
		await sandboxOf().admin.seedManyItems({ count: 200, status: 'approved', skuPrefix: 'LIVE-', firstNumber: 1 });
		await sandboxOf().admin.seedManyItems({ count: 1_800, status: 'approved', skuPrefix: 'SOLD-', firstNumber: 1 });
		const live = (n: number) => Array.from({ length: n }, (_, i) => validItem(`LIVE-${i + 1}`, { quantity: 1 }));
		const staticData: IDataObject = {};
		// Over the months: 1,800 pieces left the source and were set to 0 (here in one run, the limits raised for it).
		const past = await run(mirror({ maxMissingItems: 2_000, maxMissingPercent: 100 }), live(200), { staticData });
		expect(zeroings(past.writes)).toHaveLength(1_800);
		expect(past.items[200].json.guard).toBe('Within the guard: 1,800 of 2,000 items that could be set to 0 (90.0 %); 0 listed items are already at 0, deleted or rejected and are not counted');
		expect((await run(mirror(), live(200), { staticData })).writes).toHaveLength(0);

		const half = await run(mirror(), live(100), { staticData });
		expect(half.writes).toHaveLength(0);
		expect(half.result.error?.message).toMatch(
			/^Stopped before any write: the run would set 100 of 200 items that could be set to 0 \(50\.0 %\), more than Max Missing Percent \(10 %\); 1,800 listed items are already at 0, deleted or rejected and are not counted\. Vendor SKUs in no input row: LIVE-101/,
		);
		expect((await quantities()).get('LIVE-200')).toBe(1);
	}, MIRROR_TIMEOUT_MS);

	it('refuses a run whose input cannot be whole: Batching on, Execute Once, a row without a SKU under Continue On Fail', async () => {
		await seedCatalogue();
		const batching = await run(mirror({ requestOptions: { batching: { batch: { batchSize: 100, batchInterval: 1000 } } } }), rows(950));
		expect(batching.result.error?.message).toMatch(/Batching is on/);
		const once = await run(mirror(), rows(950), { settings: { executeOnce: true } });
		expect(once.result.error?.message).toMatch(/Execute Once/);
		const noSku = await run(mirror(), [...rows(950), validItem('', {})], { settings: { onError: 'continueRegularOutput' } });
		expect(noSku.result.error?.message).toMatch(/^Item index 950 has no vendor_sku/);
		for (const refused of [batching, once, noSku]) expect(refused.requests).toHaveLength(0);
	}, MIRROR_TIMEOUT_MS);

	it('a row refused under Continue On Fail still keeps its item: its SKU counts as in the source', async () => {
		await seedCatalogue();
		const input = rows(1_000);
		input[999] = validItem('MIR-1000', { price: 'not a price' });
		const { result, writes, items } = await run(mirror(), input, { settings: { onError: 'continueRegularOutput' } });
		expect(result.error).toBeUndefined();
		expect(writes).toHaveLength(0);
		expect(items).toHaveLength(1_000);
	}, MIRROR_TIMEOUT_MS);
});

describe('Create or Update, Listed Items Not in the Input: non-approved items and Report Them', () => {
	async function seedMixed() {
		await sandboxOf().admin.seedManyItems({ count: 20, status: 'approved', skuPrefix: 'MIX-', firstNumber: 1 });
		await sandboxOf().admin.seedManyItems({ count: 2, status: 'pending', skuPrefix: 'MIX-', firstNumber: 21 });
		await sandboxOf().admin.seedManyItems({ count: 1, status: 'rejected', skuPrefix: 'MIX-', firstNumber: 23 });
		await sandboxOf().admin.seedManyItems({ count: 1, status: 'deleted', skuPrefix: 'MIX-', firstNumber: 24 });
	}
	// 3 of 23 listed would be set to 0 (13 %): above the default share.
	const mixMirror = () => mirror({ maxMissingPercent: 20 });
	const mixRows = () => Array.from({ length: 19 }, (_, i) => validItem(`MIX-${i + 1}`, { quantity: 1 }));
	const bySku = (items: Array<{ json: IDataObject }>) => new Map(items.filter((item) => item.json.missingFromInput).map((item) => [item.json.vendor_sku, item.json]));

	it('a service that refuses a quantity-only PATCH of a non-approved item: the item is reported "not set to 0", never left silently', async () => {
		await seedMixed();
		const { result, writes, items } = await run(mixMirror(), mixRows());
		expect(result.error).toBeUndefined();
		const missing = bySku(items);
		expect([...missing.keys()].sort()).toEqual(['MIX-20', 'MIX-21', 'MIX-22', 'MIX-23']);
		expect(missing.get('MIX-20')).toMatchObject({ operation: 'set to 0', validation_status: 'approved' });
		expect(missing.get('MIX-21')).toMatchObject({ operation: 'not set to 0', validation_status: 'pending', quantity_before: 1 });
		expect(String(missing.get('MIX-21')?.message)).toMatch(/every creation field/);
		// A PATCH would send a rejected item back to review: reported, not written.
		expect(missing.get('MIX-23')).toMatchObject({ operation: 'not set to 0', validation_status: 'rejected' });
		expect(zeroings(writes)).toHaveLength(3);
		expect(hintsOf(result)).toEqual(['23 items: 19 not applied · 1 set to 0 · 3 not set to 0']);
	}, MIRROR_TIMEOUT_MS);

	it('a zeroing PATCH the service answers with HTTP 500 is reported "outcome unknown" (a server error may come after the change), and sent again by the next run', async () => {
		await seedMixed();
		const ids = new Map((await sandboxOf().admin.state()).items.map((item) => [item.vendor_sku, item.item_id]));
		await sandboxOf().admin.addFault({ kind: 'status', status: 500, method: 'PATCH', pathPrefix: `/v1/items/${ids.get('MIX-20')}`, count: 20 });
		const staticData: IDataObject = {};
		const first = await run(mixMirror(), mixRows(), { staticData });
		expect(first.result.error).toBeUndefined();
		const reported = bySku(first.items).get('MIX-20');
		expect(reported).toMatchObject({ operation: 'outcome unknown', validation_status: 'approved' });
		expect(String(reported?.reason)).toMatch(/500/);
		expect((await quantities()).get('MIX-20')).toBe(1);
		await sandboxOf().admin.clearFaults();
		// A quantity of 0 is absolute, so sending it again is harmless; the workflow remembers only confirmed ones.
		const second = await run(mixMirror(), mixRows(), { staticData });
		expect(zeroings(second.writes).map(itemIdOf)).toContain(ids.get('MIX-20'));
		expect(bySku(second.items).get('MIX-20')).toMatchObject({ operation: 'set to 0' });
		expect((await quantities()).get('MIX-20')).toBe(0);
	}, MIRROR_TIMEOUT_MS);

	it('a row the service refuses without Continue On Fail: the error counts the input items and names what was done to the listed items no row names', async () => {
		await seedMixed();
		await sandboxOf().admin.addFault({ kind: 'status', status: 422, method: 'POST', pathPrefix: '/v1/consignments', count: 10, body: { errors: ['vendor_sku is invalid'] } });
		const { result, writes } = await run(mixMirror(), [...mixRows(), validItem('MIX-NEW', { quantity: 1 })]);
		const message = result.error?.message ?? '';
		const description = (result.error as { description?: string } | undefined)?.description ?? '';
		expect(message).toMatch(/^1 of 20 items failed\. Item index 19 \(vendor_sku MIX-NEW\)/);
		// The listed items are settled before the error, which replaces every output item: it has to tell of them.
		expect(zeroings(writes).map(itemIdOf)).toHaveLength(3);
		expect(description).toContain('No input item was created or changed.');
		expect(description).toContain('Listed items not in the input: 1 set to 0 (MIX-20); 3 not set to 0 (MIX-21, MIX-22, MIX-23).');
		expect(description).toContain('Running the node again after fixing the failed rows is safe for them: items at 0 stay at 0');
	}, MIRROR_TIMEOUT_MS);

	it('a service that applies a quantity-only PATCH: non-approved items are set to 0 too; a second run leaves them (their listing shows 0)', async () => {
		await seedMixed();
		await sandboxOf().admin.setPartialPatchOfNonApproved(true);
		const { writes, items } = await run(mixMirror(), mixRows());
		const missing = bySku(items);
		expect(missing.get('MIX-21')).toMatchObject({ operation: 'set to 0', quantity_before: 1 });
		expect(missing.get('MIX-22')).toMatchObject({ operation: 'set to 0' });
		expect(zeroings(writes)).toHaveLength(3);
		const stored = await quantities();
		expect([stored.get('MIX-20'), stored.get('MIX-21'), stored.get('MIX-22'), stored.get('MIX-23')]).toEqual([0, 0, 0, 1]);
		// No static data here (a manual run): the approved one is sent again, the non-approved ones are seen at 0.
		const again = await run(mixMirror(), mixRows());
		expect(zeroings(again.writes).map(itemIdOf)).toEqual([missing.get('MIX-20')?.item_id]);
	}, MIRROR_TIMEOUT_MS);

	it('Report Them: one output item per missing item, no write, no guard', async () => {
		await seedMixed();
		const reported = await run(mirror({ missingItems: 'report' }), mixRows().slice(0, 1));
		expect(reported.writes).toHaveLength(0);
		expect(bySku(reported.items).size).toBe(22);
		expect(hintsOf(reported.result)).toEqual(['23 items: 1 not applied · 22 not in input']);
	}, MIRROR_TIMEOUT_MS);
});
