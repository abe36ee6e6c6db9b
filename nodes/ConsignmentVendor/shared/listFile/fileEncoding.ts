/**
 * The two file formats, one line per record. CSV per RFC 4180 (CRLF line ends, a field quoted when it holds a
 * quote, comma or line break, quotes doubled), with a header row and a UTF-8 byte-order mark so spreadsheets read
 * accents ("Hermès") as UTF-8; nested objects and arrays as JSON text. JSON Lines: one JSON object per line.
 */
import type { IDataObject } from 'n8n-workflow';

import { dollarsFromCents, fileRow, priceColumns, priceOf, type RowRules } from './fileRows';

export type FileFormat = 'csv' | 'jsonLines';

/** Where a full export (every field) puts fields that the first page did not show: the header is written first. */
export const OTHER_FIELDS_COLUMN = 'other_fields';

const UTF8_BOM = '\uFEFF';

export const FORMATS: Record<FileFormat, { extension: string; mimeType: string }> = {
	csv: { extension: 'csv', mimeType: 'text/csv' },
	jsonLines: { extension: 'jsonl', mimeType: 'application/jsonl' },
};

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: unknown): string {
	if (value === undefined || value === null) return '';
	// A number or a boolean never holds a quote, comma or line break: the export's hot path skips the test.
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
	return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export interface LineEncoder {
	/** What each part starts with (CSV: the byte-order mark and the header row). */
	readonly start: string;
	/** A record as the items output would show it (simplified or whole), as one line of the file. */
	line(record: IDataObject): string;
}

export function jsonLinesEncoder(rules: RowRules): LineEncoder {
	return { start: '', line: (record) => `${JSON.stringify(fileRow(record, rules))}\n` };
}

/**
 * A CSV column's cells, written straight from the record's field by fileRow's rules (a price brings its companion
 * cells): a million records pass through here, so no row object is built per record.
 */
function cellsOf(column: string, rules: RowRules): (value: unknown) => string {
	if (rules.priceFields.includes(column)) {
		return (value) => {
			const price = priceOf(value);
			let cells = price ? String(price.cents) : csvField(value);
			if (rules.priceCurrency) cells += `,${csvField(price?.currency)}`;
			if (rules.dollars) cells += `,${price ? dollarsFromCents(price.cents) : ''}`;
			return cells;
		};
	}
	// Anything else, ids included, is its text: a number id is written as its digits, as fileRow's text would be.
	return csvField;
}

/** The record fields `columns`, in order (a price expands to its companion columns); with `otherFields`, fields
 * outside them go, as JSON, into the last column. */
export function csvEncoder(columns: readonly string[], otherFields: boolean, rules: RowRules): LineEncoder {
	const known = new Set(columns);
	const cells = columns.map((column) => cellsOf(column, rules));
	const header = columns.flatMap((column) => (rules.priceFields.includes(column) ? priceColumns(column, rules) : [column]));
	if (otherFields) header.push(OTHER_FIELDS_COLUMN);
	return {
		start: `${UTF8_BOM}${header.map(csvField).join(',')}\r\n`,
		line(record) {
			let line = cells.length > 0 ? cells[0](record[columns[0]]) : '';
			for (let i = 1; i < cells.length; i++) line += `,${cells[i](record[columns[i]])}`;
			if (otherFields) {
				let other: IDataObject | undefined;
				for (const key of Object.keys(record)) {
					if (!known.has(key)) (other ??= {})[key] = record[key];
				}
				if (cells.length > 0) line += ',';
				if (other) line += csvField(fileRow(other, rules));
			}
			return `${line}\r\n`;
		},
	};
}
