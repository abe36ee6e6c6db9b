/**
 * The two file formats, one line per record. CSV per RFC 4180 (CRLF line ends, a field quoted when it holds a
 * quote, comma or line break, quotes doubled), with a header row and a UTF-8 byte-order mark so spreadsheets read
 * accents ("Hermès") as UTF-8; nested objects and arrays as JSON text. JSON Lines: one JSON object per line.
 */
import type { IDataObject } from 'n8n-workflow';

import { NO_ROOM, NOT_PLAIN, writeByte, writePlainField, writeText, writeWholeNumber } from './csvBytes';
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
	/**
	 * The same line's UTF-8 bytes written into `buf` from `pos` (not past `end`), without building it as a string;
	 * returns where it ended, or NO_ROOM (then the caller tries a larger buffer, or `line`). Optional: the hot path.
	 */
	writeLine?(record: IDataObject, buf: Buffer, pos: number, end: number): number;
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
			// Whole cents as a number (the approved listing's every price) are their own cents: priceOf would read them
			// back from their text (a string and two pattern tests per record).
			const price = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? { cents: value } : priceOf(value);
			let cells = price ? String(price.cents) : csvField(value);
			if (rules.priceCurrency) cells += `,${csvField(price?.currency)}`;
			if (rules.dollars) cells += `,${price ? dollarsFromCents(price.cents) : ''}`;
			return cells;
		};
	}
	// Anything else, ids included, is its text: a number id is written as its digits, as fileRow's text would be.
	return csvField;
}

const COMMA = 44;
const CARRIAGE_RETURN = 13;
const LINE_FEED = 10;

type CellWriter = (value: unknown, buf: Buffer, pos: number, end: number) => number;

const isWholeNumber = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * A CSV column's cells as bytes: plain text copied as it is and a whole number written as its digits where that
 * is the cell, anything else as `cells` words it.
 */
function cellWriterOf(cells: (value: unknown) => string, textAsItIs: boolean, wholeNumberAsItIs: boolean): CellWriter {
	return (value, buf, pos, end) => {
		if (textAsItIs && typeof value === 'string') {
			const at = writePlainField(value, buf, pos, end);
			if (at !== NOT_PLAIN) return at;
		} else if (wholeNumberAsItIs && isWholeNumber(value)) {
			return writeWholeNumber(value, buf, pos, end);
		}
		return writeText(cells(value), buf, pos, end);
	};
}

/** The record fields `columns`, in order (a price expands to its companion columns); with `otherFields`, fields
 * outside them go, as JSON, into the last column. */
export function csvEncoder(columns: readonly string[], otherFields: boolean, rules: RowRules): LineEncoder {
	const known = new Set(columns);
	const cells = columns.map((column) => cellsOf(column, rules));
	// A plain text or whole number value is its own cell in every column but the prices, whose cells fileRow's rules
	// build: there a whole number is its own cents, its own cell when the price has no companion columns.
	const priceAlone = !rules.priceCurrency && !rules.dollars;
	const writers = columns.map((column, i) => {
		const price = rules.priceFields.includes(column);
		return cellWriterOf(cells[i], !price, !price || priceAlone);
	});
	const header = columns.flatMap((column) => (rules.priceFields.includes(column) ? priceColumns(column, rules) : [column]));
	if (otherFields) header.push(OTHER_FIELDS_COLUMN);
	const start = `${UTF8_BOM}${header.map(csvField).join(',')}\r\n`;
	const line = (record: IDataObject) => {
		let text = cells.length > 0 ? cells[0](record[columns[0]]) : '';
		for (let i = 1; i < cells.length; i++) text += `,${cells[i](record[columns[i]])}`;
		if (otherFields) {
			let other: IDataObject | undefined;
			for (const key of Object.keys(record)) {
				if (!known.has(key)) (other ??= {})[key] = record[key];
			}
			if (cells.length > 0) text += ',';
			if (other) text += csvField(fileRow(other, rules));
		}
		return `${text}\r\n`;
	};
	// A full export's other_fields cell is JSON text built per record anyway: those lines take the string path.
	if (otherFields) return { start, line };
	const writeLine = (record: IDataObject, buf: Buffer, pos: number, end: number) => {
		let at = pos;
		for (let i = 0; i < writers.length && at !== NO_ROOM; i++) {
			if (i > 0) at = writeByte(COMMA, buf, at, end);
			if (at !== NO_ROOM) at = writers[i](record[columns[i]], buf, at, end);
		}
		if (at !== NO_ROOM) at = writeByte(CARRIAGE_RETURN, buf, at, end);
		return at === NO_ROOM ? NO_ROOM : writeByte(LINE_FEED, buf, at, end);
	};
	return { start, line, writeLine };
}
