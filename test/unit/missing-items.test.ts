// Which listed items Create or Update's mirror finds missing, and its guard, on catalogues a service could send:
// numeric SKUs (with the leading zeros a JSON number loses), SKUs differing in case or spaces, every status, items
// already at 0, items remembered at 0; the guard counting over the items it could set to 0.
import type { IDataObject } from 'n8n-workflow';

import type { ItemCatalog } from '../../nodes/ConsignmentVendor/resources/item/upsert/itemCatalog';
import { guardCounts, guardVerdict, planMissingItems } from '../../nodes/ConsignmentVendor/resources/item/upsert/mirror/missingItems';
import type { MissingItemsSettings } from '../../nodes/ConsignmentVendor/resources/item/upsert/mirror/missingItemsFields';
import { InputSkus } from '../../nodes/ConsignmentVendor/resources/item/helpers/skuText';
import { ZeroedItemsMemory } from '../../nodes/ConsignmentVendor/resources/item/upsert/mirror/zeroedItemsMemory';

const zeroToo: MissingItemsSettings = { mode: 'setQuantityToZero', maxMissingPercent: 10, maxMissingItems: 250 };

function catalogOf(records: IDataObject[]): ItemCatalog {
	const approved = new Map<string, IDataObject[]>();
	const nonApproved = new Map<string, IDataObject[]>();
	for (const record of records) {
		const into = record.item_status === 'approved' ? approved : nonApproved;
		const key = String(record.vendor_sku).toLowerCase();
		into.set(key, [...(into.get(key) ?? []), record]);
	}
	return { approved, nonApproved, approvedComplete: true, nonApprovedComplete: true, requests: 2 };
}

const memory = (staticData: IDataObject = {}) => ZeroedItemsMemory.of({ getWorkflowStaticData: () => staticData } as never);
const present = (...skus: unknown[]) => new InputSkus(skus);

describe('planMissingItems', () => {
	it('matches SKUs as trimmed text ignoring case, a numeric vendor_sku included', () => {
		const catalog = catalogOf([
			{ item_id: 1, vendor_sku: 12345, item_status: 'approved' },
			{ item_id: 2, vendor_sku: 'ABC-1', item_status: 'approved' },
			{ item_id: 3, vendor_sku: ' gone ', item_status: 'approved' },
		]);
		const plan = planMissingItems(catalog, present('12345', ' abc-1 '), zeroToo, memory());
		expect(plan.missing.map((item) => [item.itemId, item.action, item.quantityBefore])).toEqual([[3, 'setToZero', undefined]]);
		expect(plan.listed).toBe(3);
	});

	it('a listed number is kept by a row with its digits and any leading zeros; a listed text only by its own zeros', () => {
		const catalog = catalogOf([
			{ item_id: 1, vendor_sku: 73001, item_status: 'approved' },
			{ item_id: 2, vendor_sku: 73002, item_status: 'approved' },
			{ item_id: 3, vendor_sku: '0073003', item_status: 'approved' },
			{ item_id: 4, vendor_sku: 73004, item_status: 'approved' },
		]);
		const plan = planMissingItems(catalog, present('0073001', '073001', '73002', '73003', '73004-B'), zeroToo, memory());
		// 73001: two rows could be it (refused by the rows' lookup), but the input holds it: never set to 0.
		expect(plan.missing.map((item) => item.itemId)).toEqual([3, 4]);
	});

	it('by status: pending set to 0, rejected only reported, deleted and quantity 0 left out, a variant counted once', () => {
		const catalog = catalogOf([
			{ item_id: 1, vendor_sku: 'P', item_status: 'pending', quantity: 2 },
			{ item_id: 2, vendor_sku: 'R', item_status: 'rejected', quantity: 1 },
			{ item_id: 3, vendor_sku: 'D', item_status: 'deleted', quantity: 1 },
			{ item_id: 4, vendor_sku: 'Z', item_status: 'reconciliation', quantity: 0 },
			{ item_id: 5, vendor_sku: 'A', item_status: 'approved' },
			{ item_id: 5, vendor_sku: 'A', item_status: 'approved' },
		]);
		const plan = planMissingItems(catalog, present(), zeroToo, memory());
		expect(plan.missing.map((item) => [item.vendorSku, item.action])).toEqual([
			['A', 'setToZero'],
			['P', 'setToZero'],
			['R', 'report'],
		]);
		expect(plan.listed).toBe(4);
		expect(planMissingItems(catalog, present(), { ...zeroToo, mode: 'report' }, memory()).missing.every((item) => item.action === 'report')).toBe(true);
	});

	it('an approved item this workflow set to 0 is not sent again, remembered while listed (its SKU back or not), forgotten once not listed', () => {
		const staticData: IDataObject = {};
		const first = memory(staticData);
		first.remember(7);
		first.save();
		const catalog = catalogOf([{ item_id: 7, vendor_sku: 'SOLD', item_status: 'approved' }]);
		expect(planMissingItems(catalog, present(), zeroToo, memory(staticData)).missing).toEqual([]);
		const back = memory(staticData);
		const plan = planMissingItems(catalog, present('sold'), zeroToo, back);
		// At 0 for good (an approved item's quantity is never raised from 0): not an item the guard could harm.
		expect([plan.couldSetToZero, plan.notCounted]).toEqual([0, 1]);
		back.keepOnly((id) => plan.listedIds.has(id));
		back.save();
		expect(staticData.zeroedItems).toEqual(['7']);
		const gone = memory(staticData);
		gone.keepOnly((id) => planMissingItems(catalogOf([]), present(), zeroToo, gone).listedIds.has(id));
		gone.save();
		expect(staticData.zeroedItems).toEqual([]);
	});
});

describe('guardVerdict', () => {
	const planOf = (missing: number, listed: number) =>
		planMissingItems(
			catalogOf(Array.from({ length: listed }, (_, i) => ({ item_id: i + 1, vendor_sku: `S-${i + 1}`, item_status: 'approved' }))),
			present(...Array.from({ length: listed - missing }, (_, i) => `S-${i + 1}`)),
			zeroToo,
			memory(),
		);

	it('lets through up to the limits, stops above either, naming the count and SKUs', () => {
		expect(guardVerdict(planOf(100, 1_000), zeroToo)).toBeUndefined();
		expect(guardVerdict(planOf(101, 1_000), zeroToo)?.message).toMatch(
			/^Stopped before any write: the run would set 101 of 1,000 items that could be set to 0 \(10\.1 %\), more than Max Missing Percent \(10 %\); 0 listed items are already at 0, deleted or rejected and are not counted\. Vendor SKUs in no input row: S-900, S-901/,
		);
		expect(guardVerdict(planOf(251, 10_000), zeroToo)?.message).toMatch(/more than Max Missing Items \(250\);/);
		expect(guardVerdict(planOf(1_000, 1_000), { ...zeroToo, mode: 'report' })).toBeUndefined();
	});
});

describe('the guard counts over the items it could set to 0', () => {
	it('1,800 approved items remembered at 0 beside 200 live, a source of 100 of the live: 100 of 200 (50 %), stopped', () => {
		const staticData: IDataObject = {};
		const zeroed = memory(staticData);
		const records: IDataObject[] = [];
		for (let i = 1; i <= 2_000; i++) {
			records.push({ item_id: i, vendor_sku: `S-${i}`, item_status: 'approved' });
			if (i > 200) zeroed.remember(i);
		}
		const plan = planMissingItems(catalogOf(records), present(...Array.from({ length: 100 }, (_, i) => `S-${i + 1}`)), zeroToo, zeroed);
		expect([plan.missing.length, plan.couldSetToZero, plan.notCounted]).toEqual([100, 200, 1_800]);
		expect(guardVerdict(plan, zeroToo)?.message).toMatch(
			/^Stopped before any write: the run would set 100 of 200 items that could be set to 0 \(50\.0 %\), more than Max Missing Percent \(10 %\); 1,800 listed items are already at 0, deleted or rejected and are not counted\./,
		);
	});

	it('not counted: non-approved items listed at 0, deleted ones, rejected ones (never set to 0); counted: pending with a quantity', () => {
		const catalog = catalogOf([
			{ item_id: 1, vendor_sku: 'P', item_status: 'pending', quantity: 2 },
			{ item_id: 2, vendor_sku: 'Z', item_status: 'pending', quantity: 0 },
			{ item_id: 3, vendor_sku: 'D', item_status: 'deleted', quantity: 1 },
			{ item_id: 4, vendor_sku: 'R', item_status: 'rejected', quantity: 1 },
			{ item_id: 5, vendor_sku: 'A', item_status: 'approved' },
		]);
		const plan = planMissingItems(catalog, present('A'), zeroToo, memory());
		expect([plan.couldSetToZero, plan.notCounted]).toEqual([2, 3]);
		expect(guardCounts(plan)).toBe('1 of 2 items that could be set to 0 (50.0 %); 3 listed items are already at 0, deleted or rejected and are not counted');
	});
});
