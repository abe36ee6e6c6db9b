// Exact conversion of amounts to the API's whole cents: dollars by string arithmetic, never float drift.
import {
	centsFromCents,
	centsFromDollars,
	MoneyFormatError,
	toCents,
} from '../../nodes/shared/money';

describe('centsFromDollars', () => {
	it.each([
		['12.34', 1234],
		[19.99, 1999],
		['19.99', 1999],
		[0.29, 29], // 0.29 * 100 is 28.999999999999996 in floating point
		[4.35, 435], // 4.35 * 100 is 434.99999999999994
		['1099.1', 109910],
		['5', 500],
		[5, 500],
		['7.', 700],
		['.5', 50],
		['$7.50', 750],
		['  3.30  ', 330],
		['12.340', 1234], // trailing zeros beyond 2 decimals are still exact
		['0.01', 1],
		['0', 0],
		['90071992547409.91', 9007199254740991],
	])('%p dollars -> %p cents', (input, cents) => {
		expect(centsFromDollars(input)).toBe(cents);
	});

	it.each([
		['12.345', /more than 2 decimals/],
		[0.1 + 0.2, /more than 2 decimals/], // 0.30000000000000004: not an exact amount
		['1,234.56', /no thousands separators/],
		['12.3.4', /amount in dollars/],
		['abc', /amount in dollars/],
		['', /is empty/],
		['   ', /is empty/],
		['.', /amount in dollars/],
		['-5.00', /must not be negative/],
		[-5, /must not be negative/],
		['1e3', /amount in dollars/],
		[1e21, /out of range/],
		[Number.NaN, /finite number/],
		[Number.POSITIVE_INFINITY, /finite number/],
		[null, /number or a numeric string/],
		[true, /number or a numeric string/],
		['90071992547409.93', /too large/],
	])('%p is refused: %p', (input, message) => {
		expect(() => centsFromDollars(input)).toThrow(MoneyFormatError);
		expect(() => centsFromDollars(input)).toThrow(message);
	});

	it('names the offending value in the message', () => {
		expect(() => centsFromDollars('12.345')).toThrow('"12.345"');
	});
});

describe('centsFromCents', () => {
	it.each([
		[1999, 1999],
		['1999', 1999],
		[' 1999 ', 1999],
		[1999.0, 1999],
		[0, 0],
	])('%p cents -> %p', (input, cents) => {
		expect(centsFromCents(input)).toBe(cents);
	});

	it.each([
		[19.99, /whole number of cents.*set Price Unit to Dollars/],
		['19.99', /whole number of cents/],
		['12.5', /whole number of cents/],
		// A sheet's "2100.00" is dollars written as people write them: in Cents it would silently be $21.00.
		['2100.00', /has a decimal point, got "2100.00": in Cents that would be \$21\.00\. If it is dollars, set Price Unit to Dollars; if it is cents, write 2100/],
		['650.', /has a decimal point/],
		['-100', /must not be negative/],
		['1 000', /whole number of cents/],
		['$1999', /whole number of cents/],
		['', /is empty/],
		['9007199254740993', /too large/],
	])('%p is refused: %p', (input, message) => {
		expect(() => centsFromCents(input)).toThrow(message);
	});
});

describe('toCents', () => {
	it('reads the amount in the unit given', () => {
		expect(toCents('12.34', 'dollars')).toBe(1234);
		expect(toCents('1234', 'cents')).toBe(1234);
		expect(() => toCents('12.34', 'cents')).toThrow(MoneyFormatError);
	});
});
