// One ledger of unlisted submissions per account (submissionLedger.ts), as n8n runs it: overlapping executions of one
// workflow, two workflows or two nodes on one account, a renamed node after a restart, Item Create beside Create or
// Update, the window set to 0 for one run, and Send Again. Against a service that lists a new item 90 s after
// accepting it and does not refuse a repeated vendor_sku: every sequence leaves one item per SKU.
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { buildWorkflow, packageNodeType, runWorkflow } from '../harness';
import { forgetProcessLedger } from '../../nodes/ConsignmentVendor/resources/item/helpers/submissionLedger';
import { itemWriteParameters, ItemSuite, validItem } from './item-harness';

const suite = new ItemSuite().install();

interface Run {
	/** The node's name: static data and, before the ledger, the memory were per node. */
	node?: string;
	operation?: 'create' | 'upsert';
	extra?: INodeParameters;
	rows: IDataObject[];
	staticData: IDataObject;
}

async function run({ node = 'Sheet Sync', operation = 'upsert', extra = {}, rows, staticData }: Run) {
	const workflow = buildWorkflow({ type: packageNodeType('consignmentVendor'), name: node, parameters: itemWriteParameters(operation, extra), credential: suite.store.get('cred-1') });
	const result = await runWorkflow(workflow, { credentials: suite.store, inputItems: rows, staticData, mode: 'trigger' });
	expect(result.error).toBeUndefined();
	const items = (result.outputs[node]?.[0] ?? []).map((item) => item.json);
	return { items, outcomes: items.map((json) => String(json.operation ?? json.status)) };
}

const copiesOf = async (sku: string) => (await suite.sandbox.admin.state()).items.filter((item) => item.vendor_sku.toLowerCase() === sku.toLowerCase()).length;
const postedSkus = async () =>
	(await suite.apiRequests())
		.filter((request) => request.method === 'POST' && request.path.startsWith('/v1/consignments/'))
		.flatMap((request) => ((request.body as IDataObject).items as IDataObject[]).map((item) => item.vendor_sku));
const skus = (prefix: string, count: number) => Array.from({ length: count }, (_, n) => `${prefix}-${n}`);
/** The service answers the next creation request 200 `{}` without creating anything: it refused the items later. */
const acceptThenRefuseNextCreation = () => suite.sandbox.admin.addFault({ kind: 'status', status: 200, body: {}, method: 'POST', pathPrefix: '/v1/consignments/' });

beforeEach(async () => {
	forgetProcessLedger(); // each test is a fresh n8n process
	await suite.sandbox.admin.setItemSettings({ listingDelaySeconds: 90, allowDuplicateSkus: true });
	await suite.sandbox.admin.clearRequests();
});

describe('two runs at once on one account', () => {
	it('overlapping executions of one workflow create each SKU once (the second holds what the first has on the wire)', async () => {
		const rows = skus('OVERLAP', 12).map((sku) => validItem(sku));
		await suite.sandbox.admin.addFault({ kind: 'latency', ms: 1500, method: 'POST', pathPrefix: '/v1/consignments/', count: 2 });
		// Each execution loads the workflow's static data as saved before either started.
		const first = run({ rows, staticData: {} });
		await sleep(400);
		const second = await run({ rows, staticData: {} });
		expect((await first).outcomes).toEqual(rows.map(() => 'created'));
		expect(second.outcomes).toEqual(rows.map(() => 'awaiting the service'));
		expect(second.items[0]).toMatchObject({ status: 'sending' });
		for (const sku of skus('OVERLAP', 12)) expect(await copiesOf(sku)).toBe(1);
	});

	it('with New Items Listed Within 0 (a service that lists at once), a run whose lookup began before the other\'s creation was answered looks again and creates nothing', async () => {
		await suite.sandbox.admin.setItemSettings({ listingDelaySeconds: 0, allowDuplicateSkus: true });
		await run({ rows: [validItem('AT-ONCE-WARM')], staticData: {} }); // the token, so both runs go straight to their lookups
		// Every request handled 600 ms after it arrives. The quick run: two lookups (600 ms, 1,200 ms), its POST handled
		// at 1,800 ms. The other, started at 900 ms: its first lookup handled at 1,500 ms (nothing yet), its second answered
		// at 2,100 ms, after the creation was answered: by then the first run's window of 0 holds nothing back.
		await suite.sandbox.admin.setLatency(600);
		try {
			const quick = run({ extra: { newItemsListedWithin: 0 }, rows: [validItem('AT-ONCE-1')], staticData: {} });
			await sleep(900);
			const late = await run({ rows: [validItem('AT-ONCE-1')], staticData: {} });
			expect((await quick).outcomes).toEqual(['created']);
			expect(late.outcomes).not.toContain('created');
		} finally {
			await suite.sandbox.admin.clearLatency();
		}
		expect(await copiesOf('AT-ONCE-1')).toBe(1);
	});

	it('two workflows with their own static data (a shop webhook, an hourly sheet sync) create a new SKU once', async () => {
		const shop = await run({ node: 'Shop Webhook', operation: 'create', rows: [validItem('TWO-WF-1')], staticData: {} });
		expect(shop.outcomes).toEqual(['submitted']);
		const sheet = await run({ node: 'Sheet Sync', rows: [validItem('TWO-WF-1'), validItem('TWO-WF-2')], staticData: {} });
		expect(sheet.outcomes).toEqual(['awaiting the service', 'created']);
		// And the other way round: Item Create holds a row Create or Update submitted.
		const shopAgain = await run({ node: 'Shop Webhook', operation: 'create', rows: [validItem('TWO-WF-2')], staticData: {} });
		expect(shopAgain.outcomes).toEqual(['awaiting the service']);
		expect([await copiesOf('TWO-WF-1'), await copiesOf('TWO-WF-2')]).toEqual([1, 1]);
	});

	it('a row whose answer was lost, sent on to a second Create or Update node, is not created again', async () => {
		await suite.sandbox.admin.addFault({ kind: 'drop', method: 'POST', pathPrefix: '/v1/consignments/' });
		const workflowData: IDataObject = {};
		const firstNode = await runWorkflow(
			buildWorkflow({ type: packageNodeType('consignmentVendor'), name: 'Create or Update', parameters: itemWriteParameters('upsert'), credential: suite.store.get('cred-1'), settings: { onError: 'continueRegularOutput' } }),
			{ credentials: suite.store, inputItems: [validItem('LOST-ANSWER')], staticData: workflowData, mode: 'trigger' },
		);
		expect(JSON.stringify(firstNode.outputs['Create or Update'][0][0].json)).toMatch(/Outcome unknown/);
		const retryNode = await run({ node: 'Retry Failed Rows', rows: [validItem('LOST-ANSWER')], staticData: workflowData });
		expect(retryNode.items[0]).toMatchObject({ operation: 'awaiting the service', status: 'outcome unknown' });
		expect(await postedSkus()).toEqual(['LOST-ANSWER']);
	});
});

describe('what static data carries across a restart', () => {
	it('a renamed node still holds back what the workflow submitted before the restart', async () => {
		const staticData: IDataObject = {};
		await run({ node: 'Sync', rows: [validItem('RENAMED-1')], staticData });
		forgetProcessLedger();
		const renamed = await run({ node: 'Sync Sheet To Vendor', rows: [validItem('RENAMED-1')], staticData });
		expect(renamed.outcomes).toEqual(['awaiting the service']);
		expect(await copiesOf('RENAMED-1')).toBe(1);
	});

	it('each run saves the account\'s whole ledger: the last of two overlapping runs to save keeps the other\'s submissions', async () => {
		const [early, late]: IDataObject[] = [{}, {}];
		await run({ rows: [validItem('SAVED-A')], staticData: early });
		await run({ rows: [validItem('SAVED-B')], staticData: late });
		forgetProcessLedger();
		// n8n saved `late` last, over `early`.
		const next = await run({ rows: [validItem('SAVED-A'), validItem('SAVED-B')], staticData: late });
		expect(next.outcomes).toEqual(['awaiting the service', 'awaiting the service']);
	});
});

describe('sending a refused row again', () => {
	/** A and B are waiting to be listed; R was accepted, then refused by the service (it will never be listed). */
	async function twoWaitingAndOneRefused(staticData: IDataObject) {
		await run({ rows: [validItem('WAIT-A'), validItem('WAIT-B')], staticData });
		await acceptThenRefuseNextCreation();
		await run({ rows: [validItem('REFUSED-R')], staticData });
		await suite.sandbox.admin.clearRequests();
	}
	const all = () => [validItem('WAIT-A'), validItem('WAIT-B'), validItem('REFUSED-R')];

	it('New Items Listed Within 0 for one run neither re-sends nor forgets the rows still waiting', async () => {
		const staticData: IDataObject = {};
		await twoWaitingAndOneRefused(staticData);
		const zero = await run({ extra: { newItemsListedWithin: 0 }, rows: all(), staticData });
		expect(zero.outcomes).toEqual(['awaiting the service', 'awaiting the service', 'awaiting the service']);
		const next = await run({ rows: all(), staticData });
		expect(next.outcomes).toEqual(['awaiting the service', 'awaiting the service', 'awaiting the service']);
		expect(await postedSkus()).toEqual([]);
		expect([await copiesOf('WAIT-A'), await copiesOf('WAIT-B')]).toEqual([1, 1]);
	});

	it('Send Again sends that row only, and the next run holds it as a new submission', async () => {
		const staticData: IDataObject = {};
		await twoWaitingAndOneRefused(staticData);
		const again = await run({ extra: { sendAgain: 'refused-r' }, rows: all(), staticData });
		expect(again.outcomes).toEqual(['awaiting the service', 'awaiting the service', 'created']);
		expect(await postedSkus()).toEqual(['REFUSED-R']);
		const next = await run({ rows: all(), staticData });
		expect(next.outcomes).toEqual(['awaiting the service', 'awaiting the service', 'awaiting the service']);
		expect(await postedSkus()).toEqual(['REFUSED-R']);
	});
});

describe('quiet once listed', () => {
	it('the first run that finds items created earlier sends no PATCH when the rows did not change (Only Send What Changed off)', async () => {
		const staticData: IDataObject = {};
		const rows = skus('QUIET', 30).map((sku) => validItem(sku));
		await run({ rows, staticData });
		await suite.sandbox.admin.advanceClock(91);
		await suite.sandbox.admin.clearRequests();
		const found = await run({ rows, staticData });
		expect(new Set(found.outcomes)).toEqual(new Set(['unchanged']));
		expect((await suite.apiRequests()).filter((request) => request.method !== 'GET')).toEqual([]);
		// A row that did change since its submission is sent.
		const changed = await run({ rows: [validItem('QUIET-0', { quantity: 5 })], staticData });
		expect(changed.outcomes).toEqual(['updated']);
	});
});
