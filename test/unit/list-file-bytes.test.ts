// Output: File's hot path: CSV lines with fixed columns written as bytes straight into the part's chunks
// (csvBytes.ts, fileEncoding.ts' writeLine, fileParts.ts), against the string each line stands for.
import { binaryToBuffer } from '@n8n/backend-network';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { exportToFile } from '../../nodes/ConsignmentVendor/shared/listFile/exportToFile';
import { csvEncoder } from '../../nodes/ConsignmentVendor/shared/listFile/fileEncoding';

const node = { id: '1', name: 'Consignment Vendor', type: 'consignmentVendor', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
/** What the in-memory and database modes do (BinaryDataService.store, DatabaseManager.store). */
const bufferModes = async (stream: unknown) => await binaryToBuffer(stream as Parameters<typeof binaryToBuffer>[0]);
const csvLines = (bytes: Buffer) => bytes.toString('utf8').replace(/^\uFEFF/, '').split('\r\n').filter((line) => line !== '');

describe('CSV lines written as bytes (the export\'s hot path)', () => {
	const rules = { priceFields: ['price', 'msrp'], priceCurrency: true, dollars: true };
	const columns = ['id', 'item_id', 'price', 'msrp', 'designer', 'tags', 'available'];
	const records: IDataObject[] = [
		{ id: 900001, item_id: 50001, price: { currency_code: 'EUR', price: '1299.5' }, msrp: 25000, designer: 'Chloé, Paris', tags: ['a', 'b'], available: true },
		{ id: '900002', item_id: null, price: 'call us', designer: 'say "hi"', msrp: { currency_code: 'USD', price: null } },
		{ id: 900003, designer: 'two\r\nlines', tags: { front: 'a.jpg' } },
		{ id: 'EXP-4', designer: 'Hermès 👜', price: '2100' },
		{ id: 900005, designer: 'plain,' },
		{ id: 900006, designer: 'line\nbreak' },
		{},
	];

	it('the bytes of each line are exactly the UTF-8 of its text: quotes, commas, line breaks, accents, emoji, prices, JSON', () => {
		const encoder = csvEncoder(columns, false, rules);
		for (const record of records) {
			const buf = Buffer.alloc(4096);
			const end = encoder.writeLine!(record, buf, 10, buf.length);
			expect(buf.subarray(10, end).toString('utf8')).toBe(encoder.line(record));
			expect(end - 10).toBe(Buffer.byteLength(encoder.line(record)));
		}
	});

	it('numbers written as digits are the text String() gives them, in any column, a lone price\'s cents included', () => {
		const numbers = [0, 7, 9, 10, 99, 100, 1999, 25000, 900001, 1234567890123, Number.MAX_SAFE_INTEGER, -5, 12.5, 1e21, NaN, Infinity, 2 ** 53 + 2];
		for (const priceRules of [{ priceCurrency: false, dollars: false }, { priceCurrency: true, dollars: false }, { priceCurrency: false, dollars: true }]) {
			const encoder = csvEncoder(['id', 'price', 'quantity'], false, { priceFields: ['price'], ...priceRules });
			for (const value of numbers) {
				const record = { id: value, price: value, quantity: value };
				const buf = Buffer.alloc(4096);
				const end = encoder.writeLine!(record, buf, 3, buf.length);
				expect(buf.subarray(3, end).toString('utf8')).toBe(encoder.line(record));
			}
		}
		// A number's digits never run past the room given: too little room is NO_ROOM, not a cut number.
		const encoder = csvEncoder(['id'], false, rules);
		for (let room = 0; room < 20; room++) {
			const end = encoder.writeLine!({ id: 1234567890123 }, Buffer.alloc(room), 0, room);
			expect(end === -1 || end === '1234567890123\r\n'.length).toBe(true);
		}
	});

	it('a buffer without room for the line is left for a larger one (NO_ROOM), never a line cut short', () => {
		const encoder = csvEncoder(['id', 'designer'], false, rules);
		for (const record of [{ id: 1, designer: 'Hermès 👜👜' }, { id: 2, designer: 'Chloé, Paris €' }, { id: 3, designer: 'plain' }]) {
			const text = encoder.line(record);
			for (let room = 0; room < 4 * text.length; room++) {
				const buf = Buffer.alloc(room);
				const end = encoder.writeLine!(record, buf, 0, room);
				if (end !== -1) expect(buf.subarray(0, end).toString('utf8')).toBe(text);
			}
			expect(encoder.writeLine!(record, Buffer.alloc(0), 0, 0)).toBe(-1);
		}
	});

	const designer = (n: number) => `Hermès ${'é'.repeat(n % 7)}👜 ${n}`;
	/** Lines of ~1 KB: a page is more than a 64 KB chunk, so lines cross from one chunk to the next. */
	const longDesigner = (n: number) => `${designer(n)} ${'♦é'.repeat(n % 300)}`;
	/** An export of `total` records {id, designer} (accents, emoji) to the in-memory mode, its parts' bytes. */
	async function exportAccented(total: number, parameters: IDataObject, designerOf = designer, read: (stream: unknown) => Promise<Buffer> = bufferModes) {
		const parts: Buffer[] = [];
		const context = {
			getNode: () => node,
			getNodeParameter: (name: string, _index: number, fallback: unknown) => parameters[name] ?? fallback,
			getExecutionCancelSignal: () => undefined,
			helpers: {
				prepareBinaryData: async (stream: unknown, fileName: string, mimeType: string) => {
					parts.push(await read(stream));
					return { data: '', fileName, mimeType, bytes: parts[parts.length - 1].length };
				},
			},
		} as unknown as IExecuteFunctions;
		const fetchPage = async (query: IDataObject): Promise<IDataObject> => {
			const start = query.after === undefined ? 0 : Number(query.after);
			const end = Math.min(total, start + Number(query.page_size));
			const products = [];
			for (let n = start; n < end; n++) products.push({ id: n, designer: designerOf(n) });
			return { products, page_info: { has_next_page: end < total, end_cursor: String(end) } };
		};
		const items = await exportToFile(context, {
			fetchPage,
			listing: { collectionKey: 'products', idKeys: ['id'], query: {} },
			paging: { node, itemIndex: 0, serviceKey: `unit-${Math.random()}` },
			recordOf: (record) => record as IDataObject,
			columns: ['id', 'designer'],
			priceFields: [],
			priceCurrency: false,
			defaultName: 'items',
		});
		return { parts, items };
	}

	it('parts of records with accents and emoji: each part within Max Part Size in bytes, and full (its next record would not fit)', async () => {
		const maxPartSizeMb = 0.01;
		const limit = maxPartSizeMb * 1024 * 1024;
		const total = 2_000;
		const { parts, items } = await exportAccented(total, { maxPartSizeMb });
		expect(parts.length).toBeGreaterThan(2);
		const ids: number[] = [];
		parts.forEach((bytes, index) => {
			expect(bytes.length).toBeLessThanOrEqual(limit);
			const rows = csvLines(bytes).slice(1);
			expect(items[index].json.records).toBe(rows.length);
			rows.forEach((row) => expect(row).toBe(`${row.split(',')[0]},${designer(Number(row.split(',')[0]))}`));
			ids.push(...rows.map((row) => Number(row.split(',')[0])));
			const next = ids.length;
			if (index < parts.length - 1) expect(bytes.length + Buffer.byteLength(`${next},${designer(next)}\r\n`)).toBeGreaterThan(limit);
		});
		expect(ids).toEqual(Array.from({ length: total }, (_, n) => n));
	});

	it('storage gets whole chunks, not a write per page, and the chunks it keeps until the part ends hold about the part\'s bytes', async () => {
		// In-memory and database modes keep every chunk of a part until its end: what they pin is what the part costs.
		const kept: Buffer[] = [];
		const keepChunks = async (stream: unknown) => {
			const chunks: Buffer[] = [];
			for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
			kept.push(...chunks);
			return Buffer.concat(chunks);
		};
		const shortDesigner = (n: number) => `D${n}`;
		const { parts } = await exportAccented(20_000, { pageSize: 20 }, shortDesigner, keepChunks);
		const content = parts.reduce((sum, part) => sum + part.length, 0);
		const pinned = [...new Set(kept.map((chunk) => chunk.buffer))].reduce((sum, buffer) => sum + buffer.byteLength, 0);
		// 1,000 pages of 20 records, ~200 KB: a few chunks of about 64 KB, not one per page.
		expect(kept.length).toBeLessThanOrEqual(Math.ceil(content / (32 * 1024)) + 1);
		expect(pinned).toBeLessThan(2 * content + 64 * 1024);
	});

	it('CSV of long accented records over many chunks: every line whole, every record once', async () => {
		const total = 1_000;
		const { parts } = await exportAccented(total, {}, longDesigner);
		expect(parts).toHaveLength(1);
		expect(csvLines(parts[0]).slice(1)).toEqual(Array.from({ length: total }, (_, n) => `${n},${longDesigner(n)}`));
	});

	it('JSON Lines of accented records over many chunks: every line whole, every record once', async () => {
		const total = 1_000;
		const { parts } = await exportAccented(total, { fileFormat: 'jsonLines' }, longDesigner);
		expect(parts).toHaveLength(1);
		expect(parts[0].length).toBeGreaterThan(10 * 64 * 1024);
		const lines = parts[0].toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as IDataObject);
		expect(lines).toEqual(Array.from({ length: total }, (_, n) => ({ id: String(n), designer: longDesigner(n) })));
	});
});
