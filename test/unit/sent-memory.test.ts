// Only Send What Changed's memory: fingerprints that change with any value and not with key order, kept in the
// node's workflow static data and written back as one new value (so n8n sees the change and saves it).
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { fingerprintOf, SentMemory } from '../../nodes/ConsignmentVendor/resources/item/helpers/sentMemory';

const row = { vendor_sku: 'A-1', price: 100, image: { front: 'f', back: 'b' }, gender: ['Women'] };

function contextWith(staticData: IDataObject): IExecuteFunctions {
	return { getWorkflowStaticData: () => staticData } as unknown as IExecuteFunctions;
}

describe('fingerprintOf', () => {
	it('is the same for the same row whatever the key order, and differs when any value differs', () => {
		const reordered = { gender: ['Women'], image: { back: 'b', front: 'f' }, price: 100, vendor_sku: 'A-1' };
		expect(fingerprintOf(reordered)).toBe(fingerprintOf(row));
		expect(fingerprintOf({ ...row, price: 101 })).not.toBe(fingerprintOf(row));
		expect(fingerprintOf({ ...row, image: { front: 'f', back: 'c' } })).not.toBe(fingerprintOf(row));
		expect(fingerprintOf({ ...row, gender: ['Men'] })).not.toBe(fingerprintOf(row));
		expect(fingerprintOf(row)).toMatch(/^[0-9a-f]{16}$/);
	});
});

describe('SentMemory', () => {
	it('remembers per SKU (case-insensitive) and saves into the static data only when something changed', () => {
		const staticData: IDataObject = {};
		const memory = SentMemory.of(contextWith(staticData), false);
		expect(memory.unchanged('A-1', fingerprintOf(row))).toBe(false);
		memory.save();
		expect(staticData).toEqual({});
		memory.remember('A-1', fingerprintOf(row));
		memory.save();
		expect(staticData.sentFingerprints).toEqual({ 'a-1': fingerprintOf(row) });

		const next = SentMemory.of(contextWith(staticData), false);
		expect(next.unchanged('a-1', fingerprintOf(row))).toBe(true);
		expect(next.unchanged('A-1', fingerprintOf(row))).toBe(true);
		expect(next.unchanged('A-1', fingerprintOf({ ...row, price: 1 }))).toBe(false);
	});

	it('Forget What Was Sent starts empty and saves the empty memory', () => {
		const staticData: IDataObject = { sentFingerprints: { 'a-1': fingerprintOf(row) } };
		const memory = SentMemory.of(contextWith(staticData), true);
		expect(memory.unchanged('A-1', fingerprintOf(row))).toBe(false);
		memory.save();
		expect(staticData.sentFingerprints).toEqual({});
	});
});
