// THE rule SKUs are matched by (skuText.ts): case and surrounding spaces fold; a listed JSON number, which shows no
// leading zeros, is every digit-only row SKU of its value; texts differing in their zeros stay two SKUs.
import { InputSkus, recordsMatching, skuAsSent, skuFilterForms, skuMatches } from '../../nodes/ConsignmentVendor/resources/item/helpers/skuText';

describe('skuMatches (a SKU as listed, a row SKU)', () => {
	it.each([
		[73001, '0073001'],
		[73001, '073001'],
		[73001, '73001'],
		[73001, ' 0073001 '],
		[0, '000'],
		['ABC-1', ' abc-1 '],
		['0073001', '0073001'],
		[' 0073001', '0073001'],
	])('listed %j matches the row %j', (listed, row) => {
		expect(skuMatches(listed, row)).toBe(true);
	});

	it.each([
		['0073001', '73001'],
		['73001', '0073001'],
		[73001, '73002'],
		[73001, '0073001A'],
		[73001, '-73001'],
		[7.3001, '7.3001x'],
		[null, ''],
		[73001, 'x73001'],
	])('listed %j does not match the row %j', (listed, row) => {
		expect(skuMatches(listed, row)).toBe(false);
	});
});

describe('recordsMatching (a catalogue filed by the listed SKU)', () => {
	const byKey = new Map<string, Array<{ id: number; sku: unknown }>>([
		['73001', [{ id: 1, sku: 73001 }, { id: 2, sku: '73001' }]],
		['0073001', [{ id: 3, sku: '0073001' }]],
	]);
	it('finds a row\'s listed number under its digits, and texts under its own spelling only', () => {
		expect(recordsMatching(byKey, '0073001', (record) => record.sku).map((record) => record.id)).toEqual([3, 1]);
		expect(recordsMatching(byKey, '73001', (record) => record.sku).map((record) => record.id)).toEqual([1, 2]);
		expect(recordsMatching(byKey, '073001', (record) => record.sku).map((record) => record.id)).toEqual([1]);
	});
});

describe('InputSkus (which rows a listed SKU could be)', () => {
	const input = new InputSkus(['0073001', '073001', 'ABC-1', '73002']);
	it('a listed number is each row of its digits; a text only its own row', () => {
		expect(input.rowsMatching(73001).sort()).toEqual(['0073001', '073001']);
		expect(input.rowsMatching(73002)).toEqual(['73002']);
		expect(input.rowsMatching('abc-1 ')).toEqual(['abc-1']);
		expect(input.rowsMatching('73001')).toEqual([]);
		expect(input.has(73001)).toBe(true);
		expect(input.has(73003)).toBe(false);
	});
});

describe('what is sent and asked', () => {
	it('a PATCH carries the service\'s spelling of a listed text, the row\'s for a listed number (which lost its zeros)', () => {
		expect(skuAsSent('ABC-1', 'abc-1')).toBe('ABC-1');
		expect(skuAsSent(73001, '0073001')).toBe('0073001');
	});

	it('the filter is asked the row\'s text, then for leading zeros the digits without them', () => {
		expect(skuFilterForms('0073001')).toEqual(['0073001', '73001']);
		expect(skuFilterForms('73001')).toEqual(['73001']);
		expect(skuFilterForms('ABC-1')).toEqual(['ABC-1']);
	});
});
