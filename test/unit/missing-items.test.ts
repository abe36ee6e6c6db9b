// Which listed items Create or Update's mirror finds missing, and its guard, on catalogues a service could send:
// numeric SKUs, SKUs differing in case or spaces, every status, items already at 0, items remembered at 0.
import type { IDataObject } from 'n8n-workflow';

import type { ItemCatalog } from '../../nodes/ConsignmentVendor/resources/item/helpers/itemCatalog';
import { guardVerdict, mirrorSkuKey, planMissingItems } from '../../nodes/ConsignmentVendor/resources/item/helpers/missingItems';
import type { MissingItemsSettings } from '../../nodes/ConsignmentVendor/resources/item/helpers/missingItemsFields';
import { ZeroedItemsMemory } from '../../nodes/ConsignmentVendor/resources/item/helpers/zeroedItemsMemory';

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
const present = (...skus: unknown[]) => new Set(skus.map(mirrorSkuKey));

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

	it('an approved item this workflow set to 0 is not sent again, and is forgotten once its SKU is back', () => {
		const staticData: IDataObject = {};
		const first = memory(staticData);
		first.remember(7);
		first.save();
		const catalog = catalogOf([{ item_id: 7, vendor_sku: 'SOLD', item_status: 'approved' }]);
		expect(planMissingItems(catalog, present(), zeroToo, memory(staticData)).missing).toEqual([]);
		const back = memory(staticData);
		const plan = planMissingItems(catalog, present('sold'), zeroToo, back);
		back.keepOnly((id) => plan.missingIds.has(id));
		back.save();
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
		expect(guardVerdict(planOf(101, 1_000), zeroToo)?.message).toMatch(/^Stopped before any write: 101 of 1,000 listed items \(10\.1 %\).*more than Max Missing Percent \(10 %\)\. Vendor SKUs: S-900, S-901/);
		expect(guardVerdict(planOf(251, 10_000), zeroToo)?.message).toMatch(/more than Max Missing Items \(250\)\./);
		expect(guardVerdict(planOf(1_000, 1_000), { ...zeroToo, mode: 'report' })).toBeUndefined();
	});
});
