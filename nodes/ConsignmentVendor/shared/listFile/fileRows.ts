/**
 * A listing's record as a file row: ids as text (a loader or spreadsheet never rounds or reformats them), prices
 * in whole cents as the API sends them on writes (the non-approved listing's `{currency_code, price: "19.99"}`
 * becomes cents plus a currency column), optionally a dollars column beside each price (Price Unit's words).
 */
import type { IDataObject } from 'n8n-workflow';

import { isJsonObject } from '../../../shared/jsonObject';
import { centsFromCents, centsFromDollars } from '../../../shared/money';

export interface RowRules {
	/** Fields holding a price (cents, or an object with a decimal `price`). */
	priceFields: readonly string[];
	/** Whether the listing's prices are objects carrying a currency: a `<field>_currency` column follows. */
	priceCurrency: boolean;
	/** Whether a `<field>_dollars` column follows each price. */
	dollars: boolean;
}

export function isIdField(key: string): boolean {
	return key === 'id' || key.endsWith('_id');
}

/** 1999 -> "19.99": by digits, never by dividing a float. */
export function dollarsFromCents(cents: number): string {
	const text = String(cents).padStart(3, '0');
	return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** Whole cents of a price value, or undefined when it is not one (then it is written as it came). */
export function priceOf(value: unknown): { cents: number; currency?: unknown } | undefined {
	try {
		if (isJsonObject(value)) {
			if (value.price === undefined || value.price === null) return undefined;
			return { cents: centsFromDollars(value.price), currency: value.currency_code };
		}
		if (typeof value === 'number' || typeof value === 'string') return { cents: centsFromCents(value) };
	} catch {
		// A price the service wrote in another form: kept as it came rather than dropped or guessed.
	}
	return undefined;
}

/** The price field's companion columns, in file order. */
export function priceColumns(field: string, rules: RowRules): string[] {
	return [field, ...(rules.priceCurrency ? [`${field}_currency`] : []), ...(rules.dollars ? [`${field}_dollars`] : [])];
}

/** The JSON Lines row, and the other_fields of a CSV with every field (its columns follow the same rules, cell by cell). */
export function fileRow(record: IDataObject, rules: RowRules): IDataObject {
	const row: IDataObject = {};
	for (const key in record) {
		if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
		const value = record[key];
		if (rules.priceFields.includes(key)) {
			const price = priceOf(value);
			row[key] = price ? price.cents : value;
			if (rules.priceCurrency) row[`${key}_currency`] = (price?.currency ?? null) as IDataObject[string];
			if (rules.dollars) row[`${key}_dollars`] = price ? dollarsFromCents(price.cents) : null;
		} else if (isIdField(key) && typeof value === 'number') {
			row[key] = String(value);
		} else {
			row[key] = value;
		}
	}
	return row;
}
