// Create or Update against a service that lists digit-only SKUs as JSON numbers ("ids come as numbers or strings"):
// a number shows no leading zeros, so the item "0073001" is listed as 73001. Its row finds it, through the catalogue
// read and through the per-row filter (whether the filter compares with the stored text, or with the SKU as listed,
// as a service that keeps such SKUs as numbers may): no second item, nothing set to 0. Where a listed number could be
// several rows, or a row several listed items, the row is refused with nothing sent for it, and the item is kept.
// Item Create's 207 answer ties a SKU sent as a number to its row by the same rule.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { buildWorkflow, CredentialStore, packageNodeType, runWorkflow, sandboxCredential, type NodeSettings } from '../harness';
import { forgetProcessLedger } from '../../nodes/ConsignmentVendor/resources/item/helpers/submissionLedger';
import { itemWriteParameters, validItem } from './item-input';
import { isTokenExchange, NODE_NAME, outputOf, resultOf, useSandbox } from './nodeRun.helpers';

// Without the demo data: the catalogue is exactly what each test seeds.
const sandboxOf = useSandbox({ seed: false });
let store: CredentialStore;
beforeEach(async () => {
	forgetProcessLedger(); // each test is a fresh n8n process
	store = new CredentialStore([sandboxCredential(sandboxOf())]);
	// A service that does not refuse a repeated vendor_sku (the contract does not say it does): a second creation is a second item.
	await sandboxOf().admin.setItemSettings({ numericSkusAsNumbers: true, allowDuplicateSkus: true });
});

const upsert = (extra: INodeParameters = {}): INodeParameters => itemWriteParameters('upsert', extra);
const mirror = (extra: INodeParameters = {}): INodeParameters => upsert({ missingItems: 'setQuantityToZero', ...extra });

async function run(parameters: INodeParameters, rows: IDataObject[], settings?: NodeSettings) {
	await sandboxOf().admin.clearRequests();
	const workflow = buildWorkflow({ type: packageNodeType('consignmentVendor'), name: NODE_NAME, parameters, credential: store.get('cred-1'), settings });
	const result = await runWorkflow(workflow, { credentials: store, inputItems: rows, staticData: {}, mode: 'trigger' });
	const requests = (await sandboxOf().admin.requests()).filter((request) => !isTokenExchange(request));
	const output = outputOf(result);
	return { result, requests, writes: requests.filter((request) => request.method !== 'GET'), items: output.map((item) => item.json), statuses: output.map((item) => resultOf(item).status) };
}

/** Approved items: `count` of `prefix + n` from `first`; returns the stored item of each SKU. */
async function seedApproved(prefix: string, first: number, count = 1) {
	await sandboxOf().admin.seedManyItems({ count, status: 'approved', skuPrefix: prefix, firstNumber: first });
}

async function stored() {
	return new Map((await sandboxOf().admin.state()).items.map((item) => [item.vendor_sku, item]));
}

/** Items whose SKU is 73001 with any leading zeros: one per piece, or the piece was created twice. */
const copiesOf73001 = async () => [...(await stored()).keys()].filter((sku) => /^0*73001$/.test(sku));

/** 20 approved items OTHER-1..20 beside the numeric ones, and their rows: the mirror's guard lets 1 missing of 21 through. */
const others = () => Array.from({ length: 20 }, (_, i) => validItem(`OTHER-${i + 1}`, { quantity: 1 }));

describe('a service that lists the approved item "0073001" as the JSON number 73001', () => {
	it('the mirror (catalogue read): the row "0073001" keeps its item: no second item created, nothing set to 0', async () => {
		await seedApproved('00', 73001);
		await seedApproved('OTHER-', 1, 20);
		const { result, writes, items } = await run(mirror(), [validItem('0073001', { quantity: 1 }), ...others()]);
		expect(result.error).toBeUndefined();
		expect(writes.filter((write) => write.method === 'POST')).toEqual([]);
		expect(writes.filter((write) => JSON.stringify(write.body) === '{"quantity":0}')).toEqual([]);
		expect(items).toHaveLength(21);
		expect(items[0]).toMatchObject({ vendor_sku: '0073001', item_id: (await stored()).get('0073001')?.item_id });
		expect(await copiesOf73001()).toEqual(['0073001']);
		expect((await stored()).get('0073001')?.quantity).toBe(1);
	});

	it.each([
		['compares with the stored text', false],
		['compares with the SKU as listed (finds nothing for 0073001)', true],
	])('the per-row lookup, a filter that %s: the row is found, nothing created', async (_label, skuFilterAsListed) => {
		await sandboxOf().admin.setItemSettings({ skuFilterAsListed });
		await seedApproved('00', 73001);
		const { result, requests, items } = await run(upsert(), [validItem('0073001', { quantity: 1 })]);
		expect(result.error).toBeUndefined();
		// A per-row lookup (one row is too few to read the listings for), not the catalogue.
		expect(requests.filter((request) => request.method === 'GET').every((request) => JSON.stringify(request.query).includes('vendor_sku'))).toBe(true);
		expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
		expect(items[0]).toMatchObject({ vendor_sku: '0073001', item_id: (await stored()).get('0073001')?.item_id, validation_status: 'approved' });
		expect(await copiesOf73001()).toEqual(['0073001']);
	});
});

describe('ambiguous forms are refused, never guessed', () => {
	it('the listed 73001 that two rows ("0073001", "073001") could be: both rows refused with nothing sent for them, the item not set to 0', async () => {
		await seedApproved('00', 73001);
		await seedApproved('OTHER-', 1, 20);
		const itemId = (await stored()).get('0073001')?.item_id;
		const rows = [validItem('0073001', { quantity: 1 }), validItem('073001', { quantity: 1 }), ...others()];
		const { result, writes, items } = await run(mirror(), rows, { onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(items).toHaveLength(22);
		for (const [index, sku] of [[0, '0073001'], [1, '073001']] as const) {
			expect(items[index].error).toMatch(new RegExp(`^Item index ${index}.*vendor_sku ${sku} could be any of the input rows 0073001, 073001: the service lists item_id ${itemId} under a SKU without leading zeros.*Nothing was sent for this row`));
			expect(items[index].message).toMatch(/Keep one of these rows/);
		}
		expect(writes).toEqual([]);
		expect(await copiesOf73001()).toEqual(['0073001']);
		expect((await stored()).get('0073001')?.quantity).toBe(1);
	});

	it('a row "0073001" that two listed items (the items "0073001" and "073001", both listed as 73001) could be: refused, neither set to 0', async () => {
		await seedApproved('00', 73001);
		await seedApproved('0', 73001);
		await seedApproved('OTHER-', 1, 20);
		const ids = [(await stored()).get('0073001')?.item_id, (await stored()).get('073001')?.item_id];
		const { result, writes, items } = await run(mirror(), [validItem('0073001', { quantity: 1 }), ...others()], { onError: 'continueRegularOutput' });
		expect(result.error).toBeUndefined();
		expect(items[0].error).toMatch(new RegExp(`vendor_sku 0073001 matches 2 items \\(item_id ${ids.join(', ')}\\).*Nothing was sent for this row`));
		expect(writes).toEqual([]);
		expect([(await stored()).get('0073001')?.quantity, (await stored()).get('073001')?.quantity]).toEqual([1, 1]);
	});
});

describe('Item → Create: a 207 naming a SKU as a JSON number (no leading zeros)', () => {
	const refuse73001 = { kind: 'status', status: 207, method: 'POST', pathPrefix: '/v1/consignments/', body: { error: [{ message: 'designer is invalid', vendor_sku: 73001 }] } } as const;
	const create = () => itemWriteParameters('create');

	it('the row "0073001" fails with the reason; a number two rows could be is tied to neither (both unconfirmed)', async () => {
		await sandboxOf().admin.addFault(refuse73001);
		const one = await run(create(), [validItem('0073001'), validItem('N-9')], { onError: 'continueRegularOutput' });
		expect(one.statuses).toEqual(['failed', 'submitted']);
		expect(one.items[0].error).toMatch(/vendor_sku 0073001\): designer is invalid/);
		await sandboxOf().admin.addFault(refuse73001);
		const two = await run(create(), [validItem('0073001'), validItem('073001')], { onError: 'continueRegularOutput' });
		expect(two.statuses).toEqual(['unconfirmed', 'unconfirmed']);
	});
});
