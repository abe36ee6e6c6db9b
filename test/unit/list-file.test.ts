// Output: File's parts, without n8n's engine: the CSV and JSON Lines encoding, the row rules (ids as text, prices in
// cents), and the part stream as n8n's storage reads it: `fs.writeFile` (filesystem mode) and `binaryToBuffer`
// (in-memory and database modes). The paginator is the real one over a fake listing.
import { binaryToBuffer } from '@n8n/backend-network';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { exportToFile, type FileExport } from '../../nodes/ConsignmentVendor/shared/listFile/exportToFile';
import { csvEncoder, csvField } from '../../nodes/ConsignmentVendor/shared/listFile/fileEncoding';
import { dollarsFromCents, fileRow } from '../../nodes/ConsignmentVendor/shared/listFile/fileRows';

const node = { id: '1', name: 'Consignment Vendor', type: 'consignmentVendor', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

/** A listing of `total` records, `page_size` per page, cursor = the next record's number. */
function fakeListing(total: number, onPage?: (start: number) => void | Promise<void>) {
	return async (query: IDataObject): Promise<IDataObject> => {
		const start = query.after === undefined ? 0 : Number(query.after);
		await onPage?.(start);
		const end = Math.min(total, start + Number(query.page_size));
		const products = [];
		for (let n = start; n < end; n++) products.push({ id: n, item_id: 100_000 + n, price: 1999, description: `bag "${n}", black` });
		return { products, page_info: { has_next_page: end < total, end_cursor: String(end) } };
	};
}

type Store = (stream: unknown) => Promise<Buffer>;

const work = mkdtempSync(join(tmpdir(), 'list-file-unit-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let fileNumber = 0;
/** What n8n's filesystem mode does with a stream (blob-storage's FsByteStore, 1.x's FileSystemManager). */
const fileSystemMode: Store = async (stream) => {
	const path = join(work, `part-${++fileNumber}`);
	await writeFile(path, stream as AsyncIterable<Buffer>);
	return await readFile(path);
};
/** What the in-memory and database modes do (BinaryDataService.store, DatabaseManager.store). */
const bufferModes: Store = async (stream) => await binaryToBuffer(stream as Parameters<typeof binaryToBuffer>[0]);

function run(
	parameters: IDataObject,
	total: number,
	options: {
		store: Store;
		cancel?: AbortController;
		onPage?: (start: number) => void | Promise<void>;
		recordOf?: FileExport['recordOf'];
		/** undefined: Simplify's fixed columns; null: every field (the first page's columns). */
		columns?: readonly string[] | null;
	},
) {
	const parts: Buffer[] = [];
	const context = {
		getNode: () => node,
		getNodeParameter: (name: string, _index: number, fallback: unknown) => parameters[name] ?? fallback,
		getExecutionCancelSignal: () => options.cancel?.signal,
		helpers: {
			prepareBinaryData: async (stream: unknown, fileName: string, mimeType: string) => {
				const bytes = await options.store(stream);
				parts.push(bytes);
				return { data: '', fileName, mimeType, bytes: bytes.length };
			},
		},
	} as unknown as IExecuteFunctions;
	const job: FileExport = {
		fetchPage: fakeListing(total, options.onPage),
		listing: { collectionKey: 'products', idKeys: ['id'], query: {} },
		paging: { node, itemIndex: 0, serviceKey: `unit-${Math.random()}` },
		recordOf: options.recordOf ?? ((record) => record as IDataObject),
		columns: options.columns === null ? undefined : (options.columns ?? ['id', 'item_id', 'price', 'description']),
		priceFields: ['price'],
		priceCurrency: false,
		defaultName: 'items',
	};
	return { parts, output: exportToFile(context, job) };
}

const csvLines = (bytes: Buffer) => bytes.toString('utf8').replace(/^\uFEFF/, '').split('\r\n').filter((line) => line !== '');

describe('the cost per record', () => {
	// The file's columns are Simplify's: a copy of each record with only those fields is what the items output shows.
	const simplified = (record: unknown): IDataObject => {
		const { id, item_id, price, description } = record as IDataObject;
		return { id, item_id, price, description };
	};

	it('CSV with Simplify\'s columns writes each row straight from the service\'s record: no simplified copy per record, the same file', async () => {
		let copies = 0;
		const counted = (record: unknown) => {
			copies++;
			return simplified(record);
		};
		const { parts, output } = run({ fileFormat: 'csv' }, 250, { store: bufferModes, recordOf: counted });
		await output;
		expect(copies).toBe(0);
		const lines = csvLines(parts[0]);
		expect(lines).toHaveLength(251);
		expect(lines[1]).toBe('0,100000,1999,"bag ""0"", black"');
	});

	it('JSON Lines still writes the record as the items output shows it (its own fields only)', async () => {
		let copies = 0;
		const counted = (record: unknown) => {
			copies++;
			return { id: (record as IDataObject).id };
		};
		const { parts, output } = run({ fileFormat: 'jsonLines' }, 3, { store: bufferModes, recordOf: counted });
		await output;
		expect(copies).toBe(3);
		expect(parts[0].toString('utf8').trim().split('\n')).toEqual(['{"id":"0"}', '{"id":"1"}', '{"id":"2"}']);
	});
});

describe('CSV encoding (RFC 4180)', () => {
	it('quotes a field holding a quote, comma or line break, doubling its quotes; leaves others as they are', () => {
		expect(csvField('plain text')).toBe('plain text');
		expect(csvField('a, b')).toBe('"a, b"');
		expect(csvField('say "hi"')).toBe('"say ""hi"""');
		expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
		expect(csvField('one\nline')).toBe('"one\nline"');
		expect(csvField(null)).toBe('');
		expect(csvField({ front: 'a.jpg', tags: ['x'] })).toBe('"{""front"":""a.jpg"",""tags"":[""x""]}"');
	});

	it('a UTF-8 byte-order mark and a header; fields outside the columns go into other_fields as JSON text', () => {
		const encoder = csvEncoder(['id', 'designer'], true, { priceFields: [], priceCurrency: false, dollars: false });
		expect(encoder.start).toBe('\uFEFFid,designer,other_fields\r\n');
		expect(encoder.line({ id: '7', designer: 'Hermès' })).toBe('7,Hermès,\r\n');
		expect(encoder.line({ id: '8', designer: 'Chloé', colour: 'red' })).toBe('8,Chloé,"{""colour"":""red""}"\r\n');
	});
});

describe('file rows', () => {
	const rules = { priceFields: ['price', 'msrp'], priceCurrency: false, dollars: true };

	it('dollars from cents by digits', () => {
		expect([1999, 5, 100, 0, 123456789012].map(dollarsFromCents)).toEqual(['19.99', '0.05', '1.00', '0.00', '1234567890.12']);
	});

	it('ids as text, prices in cents with dollars beside them', () => {
		expect(fileRow({ id: 900001, item_id: 50001, consignment_id: 'cons_1', price: 1999, msrp: '25000', quantity: 3 }, rules)).toEqual({
			id: '900001',
			item_id: '50001',
			consignment_id: 'cons_1',
			price: 1999,
			price_dollars: '19.99',
			msrp: 25000,
			msrp_dollars: '250.00',
			quantity: 3,
		});
	});

	it('a price object {currency_code, price} becomes cents and its currency; an unreadable price is kept as it came', () => {
		const withCurrency = { ...rules, priceCurrency: true };
		expect(fileRow({ price: { currency_code: 'USD', price: '1299.5' } }, withCurrency)).toEqual({ price: 129950, price_currency: 'USD', price_dollars: '1299.50' });
		expect(fileRow({ price: 'call us' }, rules)).toEqual({ price: 'call us', price_dollars: null });
	});

	it('a CSV line writes each cell by the same rules as the row (the encoder builds no row object)', () => {
		const all = { priceFields: ['price', 'msrp'], priceCurrency: true, dollars: true };
		const records: IDataObject[] = [
			{ id: 900001, item_id: 50001, price: { currency_code: 'EUR', price: '1299.5' }, msrp: 25000, designer: 'Chloé, Paris', extra_id: 7 },
			{ id: '900002', item_id: null, price: 'call us', designer: 'say "hi"', msrp: { currency_code: 'USD', price: null } },
			{ id: 900003 },
			// Numbers that are not whole cents (negative, a fraction, beyond a safe integer) are kept as they came.
			{ id: 900004, price: -5, msrp: 19.99 },
			{ id: 900005, price: 0, msrp: 2 ** 53 + 2 },
		];
		const columns = ['id', 'item_id', 'price', 'msrp', 'designer'];
		const encoder = csvEncoder(columns, true, all);
		// The row's way: fileRow, then each header column's field as CSV text, other fields as JSON.
		const header = encoder.start.replace('\uFEFF', '').trimEnd().split(',');
		for (const record of records) {
			const row = fileRow(record, all);
			const other = Object.fromEntries(Object.entries(record).filter(([key]) => !columns.includes(key)));
			const expected = [...header.slice(0, -1).map((column) => csvField(row[column])), Object.keys(other).length ? csvField(fileRow(other, all)) : ''];
			expect(encoder.line(record)).toBe(`${expected.join(',')}\r\n`);
		}
		expect(header).toEqual(['id', 'item_id', 'price', 'price_currency', 'price_dollars', 'msrp', 'msrp_currency', 'msrp_dollars', 'designer', 'other_fields']);
		expect(encoder.line(records[0])).toBe('900001,50001,129950,EUR,1299.50,25000,,250.00,"Chloé, Paris","{""extra_id"":""7""}"\r\n');
	});
});

describe.each([
	['filesystem mode (fs.writeFile pulls the stream)', fileSystemMode],
	['in-memory and database modes (binaryToBuffer reads its events)', bufferModes],
])('the part stream, %s', (_mode, store) => {
	it('a 2,350-record listing in parts: each part within the limit, starting with the header, every record once', async () => {
		const maxPartSizeMb = 0.02;
		const { parts, output } = run({ maxPartSizeMb }, 2_350, { store });
		const items = await output;
		expect(items.length).toBe(parts.length);
		expect(parts.length).toBeGreaterThan(3);
		const ids: number[] = [];
		parts.forEach((bytes, index) => {
			expect(bytes.length).toBeLessThanOrEqual(maxPartSizeMb * 1024 * 1024);
			const [header, ...rows] = csvLines(bytes);
			expect(header).toBe('id,item_id,price,description');
			expect(items[index].json.records).toBe(rows.length);
			ids.push(...rows.map((row) => Number(row.split(',')[0])));
		});
		expect(ids).toEqual(Array.from({ length: 2_350 }, (_, n) => n));
		expect(csvLines(parts[0])[1]).toBe('0,100000,1999,"bag ""0"", black"');
	});

	it('every field (the first page\'s columns): the first page held for the header, then every page, in parts, every record once', async () => {
		const maxPartSizeMb = 0.02;
		// From record 150 on (past the first page), a field the first page did not show: it goes into other_fields.
		const recordOf = (record: unknown) => {
			const row = record as IDataObject;
			return (Number(row.id) >= 150 ? { ...row, colour: 'black' } : row) as IDataObject;
		};
		const { parts, output } = run({ maxPartSizeMb }, 2_350, { store, recordOf, columns: null });
		const items = await output;
		expect(parts.length).toBeGreaterThan(3);
		const ids: number[] = [];
		parts.forEach((bytes) => {
			expect(bytes.length).toBeLessThanOrEqual(maxPartSizeMb * 1024 * 1024);
			const [header, ...rows] = csvLines(bytes);
			expect(header).toBe('id,item_id,price,description,other_fields');
			ids.push(...rows.map((row) => Number(row.split(',')[0])));
		});
		expect(ids).toEqual(Array.from({ length: 2_350 }, (_, n) => n));
		expect(items.reduce((sum, item) => sum + Number(item.json.records), 0)).toBe(2_350);
		expect(csvLines(parts[parts.length - 1]).pop()).toBe('2349,102349,1999,"bag ""2349"", black","{""colour"":""black""}"');
	});

	it('JSON Lines, one part: the records as JSON, ids as text', async () => {
		const { parts, output } = run({ fileFormat: 'jsonLines' }, 250, { store });
		const items = await output;
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ fileName: 'items.jsonl', records: 250, part: 1, parts: 1 });
		const lines = parts[0].toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as IDataObject);
		expect(lines.map((line) => line.id)).toEqual(Array.from({ length: 250 }, (_, n) => String(n)));
	});

	it('a cancelled export: fails, asks for no page after the cancel, outputs no part', async () => {
		const cancel = new AbortController();
		const pagesAsked: number[] = [];
		const { output } = run({ maxPartSizeMb: 0.01 }, 5_000, {
			store,
			cancel,
			onPage: (start) => {
				pagesAsked.push(start);
				if (pagesAsked.length === 3) cancel.abort();
			},
		});
		await expect(output).rejects.toThrow(/cancelled: the file was not finished/);
		expect(pagesAsked).toHaveLength(3);
	});
});

it('memory holds about a megabyte of lines: the paginator asks for the next page only once storage took what waits', async () => {
	/** The bytes of the first `n` records' lines, as the fake listing's records are written. */
	const lineBytes = (n: number) => Buffer.byteLength(`${n},${100_000 + n},1999,"bag ""${n}"", black"\r\n`);
	let written = 0;
	let asked = 0;
	let askedBytes = 0;
	let mostAhead = 0;
	// A slow disk: every chunk waits a turn of the event loop.
	const slowDisk: Store = async (stream) => {
		for await (const chunk of stream as AsyncIterable<Buffer>) {
			written += (chunk as Buffer).length;
			await new Promise((resolve) => setImmediate(resolve));
		}
		return Buffer.alloc(0);
	};
	const total = 150_000;
	const onPage = (start: number) => {
		// Every record before this page was handed over and written as a line by now.
		for (; asked < start; asked++) askedBytes += lineBytes(asked);
		mostAhead = Math.max(mostAhead, askedBytes - written);
	};
	const { output } = run({}, total, { store: slowDisk, onPage });
	await output;
	expect(asked).toBeGreaterThan(total - 1000);
	// The listing's lines are ~6.5 MB; at most 1 MB waits (MAX_QUEUED_BYTES), plus the chunk being filled and a page.
	expect(askedBytes).toBeGreaterThan(6 * 1024 * 1024);
	expect(mostAhead).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024 + 100 * lineBytes(total));
});

it('storage that stops before a part\'s end: the export fails rather than output a file without its last lines', async () => {
	// A reader giving up after its first chunk without a word (no destroy(), no error): the part is not whole.
	const firstChunkOnly: Store = async (stream) => {
		for await (const chunk of stream as AsyncIterable<Buffer>) return chunk;
		return Buffer.alloc(0);
	};
	const { parts, output } = run({}, 20_000, { store: firstChunkOnly });
	await expect(output).rejects.toThrow(/n8n stopped reading the file before its end/);
	expect(parts).toHaveLength(1);
});

it('storage that gives up (destroy(), as 2.x does after its read timeout): the listing stops too, the export fails', async () => {
	const givesUp: Store = async (stream) => {
		const readable = stream as { on: (event: string, listener: (...args: unknown[]) => void) => void; destroy: (error: Error) => void };
		return await new Promise<Buffer>((resolve, reject) => {
			readable.on('data', () => readable.destroy(new Error('no data for 30 s: storage gave up')));
			readable.on('error', reject);
		});
	};
	let pagesAsked = 0;
	const { parts, output } = run({}, 200_000, { store: givesUp, onPage: () => void pagesAsked++ });
	// Without destroy() reaching the paginator, it would wait for room forever and the export never settle.
	await expect(output).rejects.toThrow(/storage gave up/);
	expect(parts).toHaveLength(0);
	expect(pagesAsked).toBeLessThan(100);
});

it('slow pages: storage gets the lines so far at a page\'s end once it has had nothing for a second (n8n 2.x gives up on a silent stream)', async () => {
	const started = Date.now();
	const chunksAt: number[] = [];
	let lastPageAskedAt = 0;
	const timedStore: Store = async (stream) => {
		const chunks: Buffer[] = [];
		for await (const chunk of stream as AsyncIterable<Buffer>) {
			chunksAt.push(Date.now() - started);
			chunks.push(chunk);
		}
		return Buffer.concat(chunks);
	};
	// 10 pages of 100 short records, 250 ms apart: ~2.5 s for ~40 KB, short of filling a 64 KB chunk.
	const onPage = async () => {
		lastPageAskedAt = Date.now() - started;
		await new Promise((resolve) => setTimeout(resolve, 250));
	};
	const { parts, output } = run({}, 1000, { store: timedStore, onPage });
	await output;
	expect(csvLines(parts[0])).toHaveLength(1001);
	expect(lastPageAskedAt).toBeGreaterThan(2000);
	// Storage heard something within about a second and a page of the start and of each chunk before.
	const gaps = chunksAt.map((at, index) => at - (index === 0 ? 0 : chunksAt[index - 1]));
	expect(chunksAt[0]).toBeLessThan(lastPageAskedAt);
	expect(Math.max(...gaps)).toBeLessThan(1000 + 2 * 250 + 200);
});

it('a CSV of every field whose held first page cannot be encoded at the end: the export fails, it does not hang', async () => {
	const unwritable = { toJSON: () => { throw new Error('this value cannot be written as JSON'); } };
	const recordOf = (record: unknown) => ({ ...(record as IDataObject), id: String((record as IDataObject).id), extra: unwritable }) as unknown as IDataObject;
	// One page only: its records are held for the header until the listing's end, then encoded by end().
	const { output } = run({}, 10, { store: fileSystemMode, recordOf, columns: null });
	await expect(output).rejects.toThrow(/cannot be written as JSON/);
});

it('Max Part Size not a number above 0: an error naming the field', async () => {
	const { output } = run({ maxPartSizeMb: 0 }, 10, { store: bufferModes });
	await expect(output).rejects.toThrow(/Max Part Size \(MB\) must be a number above 0, got 0/);
});
