/**
 * One part of the file, handed to n8n's `prepareBinaryData` as a stream. Community packages may not import Node's
 * `stream` (n8n's community-package lint), so this is the two faces of a Readable that n8n's binary storage uses:
 * - async iteration: the filesystem mode's `fs.writeFile(path, stream)` pulls chunk by chunk, so a page is encoded
 *   only when the disk took the one before (the paginator waits on the feed meanwhile);
 * - 'data'/'end'/'error'/'close' events and `destroy()`: the in-memory (1.x default) and database (2.x queue mode)
 *   modes read the stream whole into one Buffer (`binaryToBuffer`), which is why parts have a size limit.
 * The part ends before the record that would take it over `maxBytes` (a single larger record gets a part alone).
 */
import type { IDataObject } from 'n8n-workflow';

import { NO_ROOM } from './csvBytes';
import type { LineEncoder } from './fileEncoding';
import type { RecordFeed } from './recordFeed';

type Listener = (...args: unknown[]) => void;

/** Chunks of about this many bytes reach storage (a page of 100 records is ~20-60 KB). */
const CHUNK_BYTES = 64 * 1024;
/** The most UTF-8 bytes one UTF-16 code unit of a line takes (a surrogate pair: 4 bytes for 2 units). */
const MAX_UTF8_BYTES_PER_UNIT = 3;
/** `Buffer.write` stops before a character that does not fit: with this much room left, nothing was cut. */
const LONGEST_UTF8_CHARACTER = 4;

/**
 * A chunk to encode lines into: each line is written straight into it as UTF-8, which gives its exact size for the
 * part limit at no extra cost (no separate byte count per line, no joined string copied into a Buffer again).
 * Not reused once handed over: a reader may keep every chunk until the part ends (binaryToBuffer).
 */
function newChunk(atLeastUnits: number): Buffer {
	return Buffer.allocUnsafe(Math.max(CHUNK_BYTES, atLeastUnits * MAX_UTF8_BYTES_PER_UNIT));
}

/**
 * The first `used` bytes of `chunk` to hand over. A reader may keep every chunk until the part ends (in-memory and
 * database binary modes), so a chunk less than half full (a page's end, a long line's oversized chunk) is copied
 * rather than handed over as a view pinning the whole buffer: memory stays at the part's size. `copied` says the
 * chunk itself may be written again.
 */
function handOverOf(chunk: Buffer, used: number): { bytes: Buffer; copied: boolean } {
	if (used * 2 < chunk.length) return { bytes: Buffer.from(chunk.subarray(0, used)), copied: true };
	return { bytes: chunk.subarray(0, used), copied: false };
}

export class PartStream {
	records = 0;
	bytes = 0;
	/** True when the part ended because it was full: more records follow in the next part. */
	full = false;
	readonly readable = true;
	private listeners = new Map<string, Array<{ listener: Listener; once: boolean }>>();
	private flowing = false;
	private destroyed = false;

	constructor(
		private readonly feed: RecordFeed<IDataObject>,
		private readonly encoder: LineEncoder,
		private readonly maxBytes: number,
		private readonly checkCancelled: () => void,
	) {}

	[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
		return this.chunks();
	}

	private chunk = newChunk(0);
	/** Bytes of `chunk` holding this part's lines; past them, the line being tried (up to `lineEnd`). */
	private used = 0;
	private lineEnd = 0;

	/**
	 * Writes `record`'s line after the chunk's lines, into a fresh chunk when it may not fit (the chunk so far is
	 * returned, to hand over first); the line's end in the chunk is `lineEnd`. Nothing is committed: `used` moves
	 * only when the part keeps the line.
	 */
	private writeLine(record: IDataObject): Buffer | undefined {
		const { encoder } = this;
		let line: string | undefined;
		if (encoder.writeLine) {
			const end = encoder.writeLine(record, this.chunk, this.used, this.chunk.length);
			if (end !== NO_ROOM) return void (this.lineEnd = end);
		} else {
			line = encoder.line(record);
			const size = this.chunk.write(line, this.used);
			// Buffer.write stops before a character that does not fit: with room left over, the line is whole.
			if (this.chunk.length - this.used - size >= LONGEST_UTF8_CHARACTER) return void (this.lineEnd = this.used + size);
		}
		const handOver = this.used > 0 ? handOverOf(this.chunk, this.used).bytes : undefined;
		this.used = 0;
		if (encoder.writeLine) {
			this.chunk = newChunk(0);
			const end = encoder.writeLine(record, this.chunk, 0, this.chunk.length);
			if (end !== NO_ROOM) {
				this.lineEnd = end;
				return handOver;
			}
		}
		// A fresh chunk with room for any text of the line's length (larger than usual for a very long line).
		line ??= encoder.line(record);
		this.chunk = newChunk(line.length);
		this.lineEnd = this.chunk.write(line, 0);
		return handOver;
	}

	private takeOut(): Buffer {
		const { bytes, copied } = handOverOf(this.chunk, this.used);
		// A copied chunk is written again; one handed over as it is belongs to the reader now. An oversized chunk (a
		// long line's) is not kept for the short lines that follow.
		if (!copied || this.chunk.length > CHUNK_BYTES) this.chunk = newChunk(0);
		this.used = 0;
		return bytes;
	}

	private async *chunks(): AsyncGenerator<Buffer> {
		const { start } = this.encoder;
		if (start.length * MAX_UTF8_BYTES_PER_UNIT > this.chunk.length) this.chunk = newChunk(start.length);
		this.used = this.chunk.write(start, 0);
		this.bytes = this.used;
		for (;;) {
			this.checkCancelled();
			let record = this.feed.peekNow();
			if (record === undefined) {
				// Storage gets what is ready while the next page is fetched.
				if (this.used > 0) yield this.takeOut();
				record = await this.feed.peek();
				if (record === undefined) break;
			}
			const handOver = this.writeLine(record);
			if (handOver) yield handOver;
			const size = this.lineEnd - this.used;
			if (this.records > 0 && this.bytes + size > this.maxBytes) {
				this.full = true;
				break;
			}
			this.feed.take();
			this.used = this.lineEnd;
			this.bytes += size;
			this.records++;
		}
		this.checkCancelled();
		if (this.used > 0) yield this.takeOut();
	}

	on(event: string, listener: Listener): this {
		return this.listen(event, listener, false);
	}

	addListener(event: string, listener: Listener): this {
		return this.listen(event, listener, false);
	}

	once(event: string, listener: Listener): this {
		return this.listen(event, listener, true);
	}

	off(event: string, listener: Listener): this {
		const kept = (this.listeners.get(event) ?? []).filter((entry) => entry.listener !== listener);
		this.listeners.set(event, kept);
		return this;
	}

	removeListener(event: string, listener: Listener): this {
		return this.off(event, listener);
	}

	/** What a reader calls when it gives up (2.x: no data for the response-read timeout): the export fails. */
	destroy(error?: Error): this {
		if (!this.destroyed) {
			this.destroyed = true;
			this.feed.fail(error ?? new Error('n8n stopped reading the file before its end'));
		}
		return this;
	}

	private listen(event: string, listener: Listener, once: boolean): this {
		this.listeners.set(event, [...(this.listeners.get(event) ?? []), { listener, once }]);
		if (event === 'data') this.flow();
		return this;
	}

	private emit(event: string, ...args: unknown[]): void {
		const entries = this.listeners.get(event) ?? [];
		this.listeners.set(event, entries.filter((entry) => !entry.once));
		for (const { listener } of entries) listener(...args);
	}

	/** Started on the first 'data' listener, after the reader attached its other listeners in the same tick. */
	private flow(): void {
		if (this.flowing) return;
		this.flowing = true;
		void (async () => {
			await Promise.resolve();
			try {
				for await (const chunk of this.chunks()) {
					if (this.destroyed) return;
					this.emit('data', chunk);
				}
				if (!this.destroyed) this.emit('end');
			} catch (error) {
				this.emit('error', error);
			}
			this.emit('close');
		})();
	}
}
