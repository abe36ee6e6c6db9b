// Only Send What Changed's memory: fingerprints that change with any value (the consignment included) and not with
// key order; a skip only for what the service confirmed; kept in the node's workflow static data, bounded, and
// written back as one new value (so n8n sees the change and saves it).
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { forgetSentMemoryJournals, journalledChanges, MAX_ENTRIES, SentMemory } from '../../nodes/ConsignmentVendor/resources/item/upsert/sentMemory';
import { fingerprintOf } from '../../nodes/ConsignmentVendor/resources/item/helpers/rowFingerprint';

const row = { vendor_sku: 'A-1', price: 100, image: { front: 'f', back: 'b' }, gender: ['Women'] };
const print = fingerprintOf(row, 'cons_1');

function contextWith(staticData: IDataObject): IExecuteFunctions {
	return { getWorkflowStaticData: () => staticData, getWorkflow: () => ({ id: 'wf-1' }), getNode: () => ({ name: 'Sync' }) } as unknown as IExecuteFunctions;
}

beforeEach(() => forgetSentMemoryJournals()); // a new process: no run going on

describe('fingerprintOf', () => {
	it('is the same for the same row whatever the key order, and differs when any value or the consignment differs', () => {
		const reordered = { gender: ['Women'], image: { back: 'b', front: 'f' }, price: 100, vendor_sku: 'A-1' };
		expect(fingerprintOf(reordered, 'cons_1')).toBe(print);
		expect(fingerprintOf({ ...row, price: 101 }, 'cons_1')).not.toBe(print);
		expect(fingerprintOf({ ...row, image: { front: 'f', back: 'c' } }, 'cons_1')).not.toBe(print);
		expect(fingerprintOf({ ...row, gender: ['Men'] }, 'cons_1')).not.toBe(print);
		expect(fingerprintOf(row, 'cons_2')).not.toBe(print);
		expect(fingerprintOf(row, undefined)).not.toBe(print);
		expect(print).toMatch(/^[0-9a-f]{16}$/);
	});
});

describe('SentMemory', () => {
	it('skips only what the service confirmed, per SKU (case-insensitive); saves only when something changed', () => {
		const staticData: IDataObject = {};
		const memory = SentMemory.of(contextWith(staticData), false);
		expect(memory.unchanged('A-1', print)).toBe(false);
		memory.save();
		expect(staticData).toEqual({});
		memory.rememberSubmitted('A-1', print);
		expect(memory.unchanged('A-1', print)).toBe(false);
		expect(memory.submitted('a-1', print)).toBe(true);
		memory.confirm('A-1');
		memory.save();

		const next = SentMemory.of(contextWith(staticData), false);
		expect(next.unchanged('a-1', print)).toBe(true);
		expect(next.unchanged('A-1', fingerprintOf({ ...row, price: 1 }, 'cons_1'))).toBe(false);
	});

	it('reconcile confirms the SKUs the listings show and drops the others', () => {
		const staticData: IDataObject = {};
		const memory = SentMemory.of(contextWith(staticData), false);
		memory.rememberSubmitted('SHOWN', print);
		memory.rememberSubmitted('REFUSED', print);
		memory.rememberConfirmed('GONE', print);
		memory.reconcile((sku) => sku === 'shown');
		memory.save();
		expect(Object.keys(staticData.sentItems as object)).toEqual(['shown']);
		expect(SentMemory.of(contextWith(staticData), false).unchanged('SHOWN', print)).toBe(true);
	});

	it('a memory saved by earlier versions never causes a skip, and is removed', () => {
		const staticData: IDataObject = { sentFingerprints: { 'a-1': fingerprintOf(row, undefined) } };
		const memory = SentMemory.of(contextWith(staticData), false);
		expect(memory.unchanged('A-1', fingerprintOf(row, undefined))).toBe(false);
		memory.save();
		expect(staticData).toEqual({ sentItems: {}, sentItemsVerifiedAt: expect.any(Number) });
	});

	it(`keeps at most ${MAX_ENTRIES} SKUs, dropping those touched longest ago`, () => {
		const staticData: IDataObject = {};
		const memory = SentMemory.of(contextWith(staticData), false);
		for (let n = 0; n < MAX_ENTRIES + 10; n++) memory.rememberConfirmed(`S-${n}`, print);
		memory.rememberConfirmed('S-0', print); // touched again: kept
		memory.save();
		const kept = Object.keys(staticData.sentItems as object);
		expect(kept).toHaveLength(MAX_ENTRIES);
		expect(kept).toContain('s-0');
		expect(kept).not.toContain('s-1');
		expect(kept).toContain(`s-${MAX_ENTRIES + 9}`);
		// What the bound costs in the workflow's static data, for 12-character SKUs.
		const twelve = Object.fromEntries(kept.map((key, n) => [`sku-${String(n).padStart(8, '0')}`, staticData.sentItems![key as never]]));
		expect(JSON.stringify(twelve).length).toBeLessThan(3_600_000);
	});

	it('Forget What Was Sent starts empty and saves the empty memory', () => {
		const staticData: IDataObject = { sentItems: { 'a-1': `c${print}` } };
		const memory = SentMemory.of(contextWith(staticData), true);
		expect(memory.unchanged('A-1', print)).toBe(false);
		memory.save();
		expect(staticData.sentItems).toEqual({});
	});
});

describe('SentMemory: overlapping runs of one node', () => {
	it('the last run to save keeps what the other remembered since it began, in the order it happened', () => {
		const [slowData, quickData]: IDataObject[] = [{}, {}]; // each run loads the static data as last saved
		const slow = SentMemory.of(contextWith(slowData), false);
		const quick = SentMemory.of(contextWith(quickData), false);
		slow.rememberConfirmed('A-1', 'old');
		quick.rememberConfirmed('A-1', 'new');
		quick.rememberConfirmed('C-1', 'c');
		quick.save();
		quick.release();
		slow.rememberConfirmed('B-1', 'b');
		slow.save();
		slow.release();
		expect(slowData.sentItems).toEqual({ 'a-1': 'cnew', 'c-1': 'cc', 'b-1': 'cb' });
	});

	it('a busy node whose runs always overlap keeps only the changes its oldest run going on may replay', () => {
		const first = SentMemory.of(contextWith({}), false);
		const second = SentMemory.of(contextWith({}), false);
		for (const sku of ['A-1', 'A-2', 'A-3']) first.rememberConfirmed(sku, 'x');
		first.release();
		expect(journalledChanges()).toBe(3); // the second run began before them
		const third = SentMemory.of(contextWith({}), false);
		third.rememberConfirmed('B-1', 'y');
		second.release();
		expect(journalledChanges()).toBe(1); // the third began after A-1..3: only B-1 is kept
		third.release();
		expect(journalledChanges()).toBe(0);
	});

	it('once no run of the node goes on, a new run replays nothing (the journal is emptied)', () => {
		const first = SentMemory.of(contextWith({}), false);
		first.rememberConfirmed('A-1', 'x');
		first.release();
		const data: IDataObject = {};
		const next = SentMemory.of(contextWith(data), false);
		next.save();
		expect(data.sentItems).toBeUndefined();
	});
});
