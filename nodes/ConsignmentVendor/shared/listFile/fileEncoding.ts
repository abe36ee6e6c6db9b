/**
 * The two file formats, one line per record. CSV per RFC 4180 (CRLF line ends, a field quoted when it holds a
 * quote, comma or line break, quotes doubled), with a header row and a UTF-8 byte-order mark so spreadsheets read
 * accents ("Hermès") as UTF-8; nested objects and arrays as JSON text. JSON Lines: one JSON object per line.
 */
import type { IDataObject } from 'n8n-workflow';

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
	line(row: IDataObject): string;
}

export function jsonLinesEncoder(): LineEncoder {
	return { start: '', line: (row) => `${JSON.stringify(row)}\n` };
}

/** `columns` in order; with `otherFields`, fields outside them go, as JSON, into the last column. */
export function csvEncoder(columns: readonly string[], otherFields: boolean): LineEncoder {
	const known = new Set(columns);
	const header = otherFields ? [...columns, OTHER_FIELDS_COLUMN] : [...columns];
	return {
		start: `${UTF8_BOM}${header.map(csvField).join(',')}\r\n`,
		// A million records pass through here: one string built in place, no array per record.
		line(row) {
			let line = columns.length > 0 ? csvField(row[columns[0]]) : '';
			for (let i = 1; i < columns.length; i++) line += `,${csvField(row[columns[i]])}`;
			if (otherFields) {
				let other: IDataObject | undefined;
				for (const key in row) {
					if (!known.has(key)) (other ??= {})[key] = row[key];
				}
				if (columns.length > 0) line += ',';
				if (other) line += csvField(other);
			}
			return `${line}\r\n`;
		},
	};
}
