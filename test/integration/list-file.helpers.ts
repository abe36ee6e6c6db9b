// Reading back what Output: File produced: the binary of each part (stored in memory, or in n8n's filesystem
// storage when the test initialised it), parsed as RFC 4180 CSV or JSON Lines.
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';

export async function fileBytes(binary: IBinaryData): Promise<Buffer> {
	if (binary.id) return await Container.get(BinaryDataService).getAsBuffer(binary);
	return Buffer.from(binary.data, 'base64');
}

/** A strict RFC 4180 reader: quoted fields with doubled quotes and line breaks, CRLF record ends. */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (quoted) {
			if (char === '"' && text[i + 1] === '"') {
				field += '"';
				i++;
			} else if (char === '"') quoted = false;
			else field += char;
		} else if (char === '"' && field === '') quoted = true;
		else if (char === ',') {
			row.push(field);
			field = '';
		} else if (char === '\r' && text[i + 1] === '\n') {
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
			i++;
		} else if (char === '\n' || char === '\r') throw new Error(`bare line break in an unquoted field at ${i}`);
		else field += char;
	}
	if (field !== '' || row.length > 0) throw new Error('the last record does not end with CRLF');
	return rows;
}

export interface CsvPart {
	header: string[];
	records: Array<Record<string, string>>;
}

export async function readCsvPart(item: INodeExecutionData): Promise<CsvPart> {
	const text = (await fileBytes(item.binary!.data)).toString('utf8');
	if (!text.startsWith('\uFEFF')) throw new Error('CSV part without its UTF-8 byte-order mark');
	const [header, ...rows] = parseCsv(text.slice(1));
	return { header, records: rows.map((cells) => Object.fromEntries(header.map((column, i) => [column, cells[i]]))) };
}

export async function readJsonLinesPart(item: INodeExecutionData): Promise<Array<Record<string, unknown>>> {
	const text = (await fileBytes(item.binary!.data)).toString('utf8');
	if (text !== '' && !text.endsWith('\n')) throw new Error('JSON Lines part not ending with a line break');
	return text === '' ? [] : text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}
