/**
 * Dollars are converted by string arithmetic, never by multiplying a float: `19.99 * 100` is
 * `1998.9999999999998` in JavaScript, and rounding that hides amounts that were never exact.
 */

export type PriceUnit = 'cents' | 'dollars';

export class MoneyFormatError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'MoneyFormatError';
	}
}

const CENTS_PATTERN = /^\d+$/;
// Whole dollars, optionally a decimal point and up to any number of digits (checked below so the
// message can say "too many decimals" rather than "not a number").
const DOLLARS_PATTERN = /^\$?(\d*)(?:\.(\d*))?$/;

function describe(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : String(value);
}

/**
 * `String(19.99)` is `"19.99"`: JavaScript prints the shortest text that reads back as the same double, so a
 * number a user typed keeps its digits. Exponent forms (1e21, 1e-7) are refused.
 */
function toDecimalText(value: unknown): string {
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) throw new MoneyFormatError(`must be a finite number, got ${describe(value)}`);
		const text = String(value);
		if (/e/i.test(text)) throw new MoneyFormatError(`is out of range, got ${text}`);
		return text;
	}
	if (typeof value === 'string') return value.trim();
	throw new MoneyFormatError(`must be a number or a numeric string, got ${value === null ? 'null' : typeof value}`);
}

function checkedInteger(text: string, original: unknown): number {
	const result = Number(text);
	if (!Number.isSafeInteger(result)) {
		throw new MoneyFormatError(`is too large, got ${describe(original)}`);
	}
	return result;
}

/** Whole cents, from cents: `1999` or `"1999"` -> 1999. Fractions of a cent and negatives are errors. */
export function centsFromCents(value: unknown): number {
	const text = toDecimalText(value);
	if (text === '') throw new MoneyFormatError('is empty');
	if (text.startsWith('-')) throw new MoneyFormatError(`must not be negative, got ${describe(value)}`);
	if (!CENTS_PATTERN.test(text)) {
		// Text with a decimal point is how people write dollars: in cents "2100.00" would silently be $21.00.
		const wholeWithZeros = /^(\d+)\.0*$/.exec(text);
		if (wholeWithZeros && typeof value === 'string') {
			throw new MoneyFormatError(
				`has a decimal point, got ${describe(value)}: in Cents that would be $${(Number(wholeWithZeros[1]) / 100).toFixed(2)}. ` +
					`If it is dollars, set Price Unit to Dollars; if it is cents, write ${wholeWithZeros[1]}`,
			);
		}
		if (wholeWithZeros) return checkedInteger(wholeWithZeros[1], value);
		throw new MoneyFormatError(
			`must be a whole number of cents (e.g. 1999 for $19.99), got ${describe(value)}; ` +
				'set Price Unit to Dollars to enter 19.99',
		);
	}
	return checkedInteger(text, value);
}

/**
 * Whole cents, from dollars: `"12.34"` -> 1234, `19.99` -> 1999, `"5"` -> 500, `"$7.5"` -> 750.
 * More than two decimals is an error unless the extra digits are zeros (`"12.340"` is exactly 1234).
 */
export function centsFromDollars(value: unknown): number {
	const text = toDecimalText(value);
	if (text === '') throw new MoneyFormatError('is empty');
	if (text.startsWith('-') || text.startsWith('$-')) {
		throw new MoneyFormatError(`must not be negative, got ${describe(value)}`);
	}
	const match = DOLLARS_PATTERN.exec(text);
	if (!match || (match[1] === '' && (match[2] === undefined || match[2] === ''))) {
		throw new MoneyFormatError(
			`must be an amount in dollars such as 19.99 (digits and one decimal point, no thousands separators), got ${describe(value)}`,
		);
	}
	const whole = match[1] === '' ? '0' : match[1];
	const fraction = (match[2] ?? '').replace(/0+$/, '');
	if (fraction.length > 2) {
		throw new MoneyFormatError(`has more than 2 decimals, which is not a whole number of cents, got ${describe(value)} (Price Unit: Dollars)`);
	}
	return checkedInteger(whole + fraction.padEnd(2, '0'), value);
}

export function toCents(value: unknown, unit: PriceUnit): number {
	return unit === 'dollars' ? centsFromDollars(value) : centsFromCents(value);
}

export function isPriceUnit(value: unknown): value is PriceUnit {
	return value === 'cents' || value === 'dollars';
}
