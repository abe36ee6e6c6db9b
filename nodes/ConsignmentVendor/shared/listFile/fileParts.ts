/**
 * The file as it is written: each record becomes its line the moment the paginator hands it over, the lines fill
 * chunks of about 64 KB, the chunks queue in their part, and n8n's binary storage takes the parts one after the
 * other (PartStream). A record is never kept waiting as an object: it is garbage while still young, and storage
 * gets whole chunks rather than a write per page. The paginator asks for room before each page, so at most about
 * `maxQueuedBytes` of lines plus one page are ever held, whatever the listing's size.
 *
 * A part ends before the line that would take it over `maxPartBytes` (a single larger line gets a part alone);
 * every part starts with the encoder's `start` (CSV: the byte-order mark and the header). When the encoder is
 * chosen from the first page (a CSV of every field: its columns are the first page's), that page's records wait
 * as they came until the paginator asks for the next page or the listing ends.
 */
import type { IDataObject } from 'n8n-workflow';

import { NO_ROOM } from './csvBytes';
import type { LineEncoder } from './fileEncoding';

/** Chunks of about this many bytes reach storage (a page of 100 records is ~20-60 KB). */
const CHUNK_BYTES = 64 * 1024;
/** The most UTF-8 bytes one UTF-16 code unit of a line takes (a surrogate pair: 4 bytes for 2 units). */
const MAX_UTF8_BYTES_PER_UNIT = 3;
/** `Buffer.write` stops before a character that does not fit: with this much room left, nothing was cut. */
const LONGEST_UTF8_CHARACTER = 4;
/**
 * A chunk not yet full is queued at a page's end when storage has had nothing for this long: n8n 2.x gives up on a
 * stream that sends nothing for its read timeout (5 minutes by default), and slow pages (a low Max Requests per
 * Second, a long rate-limit pause) may take minutes to fill 64 KB. Quick pages still fill whole chunks.
 */
const MAX_MS_WITHOUT_A_CHUNK = 1000;

/**
 * A chunk to write lines into. Not reused once queued: a reader may keep every chunk until the part ends
 * (in-memory and database binary modes).
 */
function newChunk(atLeastUnits: number): Buffer {
	return Buffer.allocUnsafe(Math.max(CHUNK_BYTES, atLeastUnits * MAX_UTF8_BYTES_PER_UNIT));
}

/**
 * The first `used` bytes of `chunk` to queue. A chunk less than half full (a part's end, a long line's oversized
 * chunk) is copied rather than queued as a view pinning the whole buffer: memory stays at the part's size.
 */
function queuedBytesOf(chunk: Buffer, used: number): Buffer {
	return used * 2 < chunk.length ? Buffer.from(chunk.subarray(0, used)) : chunk.subarray(0, used);
}

export class FilePart {
	records = 0;
	bytes = 0;
	closed = false;
	readonly chunks: Buffer[] = [];
	/** Chunks before this one were taken by storage. */
	taken = 0;
}

export class FileParts {
	/** Parts not yet wholly taken by storage, oldest first; lines go into the last one. */
	private readonly parts: FilePart[] = [];
	private chunk = newChunk(0);
	/** Bytes of `chunk` holding lines of the last part. */
	private used = 0;
	/** Bytes queued in parts and not yet taken by storage. */
	private queued = 0;
	private lastQueuedAt = Date.now();
	private started = false;
	private ended = false;
	private failure: { error: unknown } | undefined;
	private wakeReader: (() => void) | undefined;
	private wakeWriter: (() => void) | undefined;

	private encoder: LineEncoder | undefined;
	private firstPage: IDataObject[] = [];

	constructor(
		private readonly encoderFor: (firstPage: readonly IDataObject[]) => LineEncoder,
		encoderNeedsFirstPage: boolean,
		private readonly maxPartBytes: number,
		private readonly maxQueuedBytes: number,
	) {
		if (!encoderNeedsFirstPage) this.encoder = encoderFor([]);
	}

	/** The record's line, in the current part or, when it would take that over its limit, at the start of the next. */
	add(record: IDataObject): void {
		if (this.encoder) this.addLine(this.encoder, record);
		else this.firstPage.push(record);
	}

	/**
	 * The paginator is about to ask for another page: a first page held back for the encoder is written now, and the
	 * lines so far go to storage when it has had nothing for a while (the next page may be slow to come).
	 */
	pageDone(): void {
		if (!this.encoder && this.firstPage.length > 0) this.chooseEncoder();
		if (this.used > 0 && this.started && Date.now() - this.lastQueuedAt >= MAX_MS_WITHOUT_A_CHUNK) this.queueChunk();
	}

	private chooseEncoder(): LineEncoder {
		const encoder = (this.encoder = this.encoderFor(this.firstPage));
		const firstPage = this.firstPage;
		this.firstPage = [];
		for (const record of firstPage) this.addLine(encoder, record);
		return encoder;
	}

	private addLine(encoder: LineEncoder, record: IDataObject): void {
		// After the first line there is always an open part: a full one is followed by the next at once.
		const part = this.started ? this.parts[this.parts.length - 1] : this.startPart(encoder);
		let lineEnd = this.writeLine(encoder, record);
		if (part.records > 0 && part.bytes + (lineEnd - this.used) > this.maxPartBytes) {
			this.closePart();
			this.startPart(encoder);
			lineEnd = this.writeLine(encoder, record);
		}
		this.commit(lineEnd);
	}

	/** Resolves once fewer than `maxQueuedBytes` wait for storage; throws once either side failed. */
	async room(): Promise<void> {
		while (this.queued >= this.maxQueuedBytes && !this.failure) {
			await new Promise<void>((resolve) => (this.wakeWriter = resolve));
		}
		if (this.failure) throw this.failure.error;
	}

	/** The listing's end: the last part is closed (an empty listing still gets one, its start alone). */
	end(): void {
		if (this.ended) return;
		const encoder = this.encoder ?? this.chooseEncoder();
		if (!this.started) this.startPart(encoder);
		this.closePart();
		this.ended = true;
		this.wake('reader');
	}

	/** Either side failed: the other stops at its next step with this error. */
	fail(error: unknown): void {
		this.failure ??= { error };
		this.wake('reader');
		this.wake('writer');
	}

	/** The next part for storage, once it has begun; undefined when the listing ended with the part before. */
	async nextPart(): Promise<FilePart | undefined> {
		for (;;) {
			if (this.failure) throw this.failure.error;
			if (this.parts.length > 0) return this.parts[0];
			if (this.ended) return undefined;
			await new Promise<void>((resolve) => (this.wakeReader = resolve));
		}
	}

	/** The part's next chunk once queued; undefined at its end (then the part is done with). */
	async nextChunk(part: FilePart): Promise<Buffer | undefined> {
		for (;;) {
			if (this.failure) throw this.failure.error;
			if (part.taken < part.chunks.length) {
				const chunk = part.chunks[part.taken];
				// Storage keeps what it needs of the chunk: the part lets go of it.
				part.chunks[part.taken++] = EMPTY;
				this.queued -= chunk.length;
				if (this.queued < this.maxQueuedBytes) this.wake('writer');
				return chunk;
			}
			if (part.closed) {
				if (this.parts[0] === part) this.parts.shift();
				return undefined;
			}
			await new Promise<void>((resolve) => (this.wakeReader = resolve));
		}
	}

	/** Whether storage took every chunk of the part, to its end. */
	wasTaken(part: FilePart): boolean {
		return part.closed && part.taken === part.chunks.length && this.parts[0] !== part;
	}

	private startPart(encoder: LineEncoder): FilePart {
		const part = new FilePart();
		this.parts.push(part);
		this.started = true;
		const { start } = encoder;
		if (start.length * MAX_UTF8_BYTES_PER_UNIT > this.chunk.length - this.used) this.queueChunk();
		if (start.length * MAX_UTF8_BYTES_PER_UNIT > this.chunk.length) this.chunk = newChunk(start.length);
		this.used += this.chunk.write(start, this.used);
		part.bytes = Buffer.byteLength(start);
		this.wake('reader');
		return part;
	}

	private closePart(): void {
		this.queueChunk();
		this.parts[this.parts.length - 1].closed = true;
		this.wake('reader');
	}

	/** The chunk's lines join the last part's queue; lines go on in a fresh chunk. */
	private queueChunk(): void {
		if (this.used === 0) return;
		const bytes = queuedBytesOf(this.chunk, this.used);
		this.parts[this.parts.length - 1].chunks.push(bytes);
		this.queued += bytes.length;
		this.lastQueuedAt = Date.now();
		this.chunk = bytes.buffer === this.chunk.buffer || this.chunk.length > CHUNK_BYTES ? newChunk(0) : this.chunk;
		this.used = 0;
		this.wake('reader');
	}

	/**
	 * Writes `record`'s line after the chunk's lines, first queueing the chunk when the line may not fit; returns the
	 * line's end in the chunk. Nothing is committed: `used` moves only when the part keeps the line.
	 */
	private writeLine(encoder: LineEncoder, record: IDataObject): number {
		let line: string | undefined;
		if (encoder.writeLine) {
			const end = encoder.writeLine(record, this.chunk, this.used, this.chunk.length);
			if (end !== NO_ROOM) return end;
		} else {
			line = encoder.line(record);
			const size = this.chunk.write(line, this.used);
			// Buffer.write stops before a character that does not fit: with room left over, the line is whole.
			if (this.chunk.length - this.used - size >= LONGEST_UTF8_CHARACTER) return this.used + size;
		}
		this.queueChunk();
		if (encoder.writeLine) {
			const end = encoder.writeLine(record, this.chunk, 0, this.chunk.length);
			if (end !== NO_ROOM) return end;
		}
		// A fresh chunk with room for any text of the line's length (larger than usual for a very long line).
		line ??= encoder.line(record);
		if (line.length * MAX_UTF8_BYTES_PER_UNIT > this.chunk.length) this.chunk = newChunk(line.length);
		return this.chunk.write(line, 0);
	}

	private commit(lineEnd: number): void {
		const part = this.parts[this.parts.length - 1];
		part.bytes += lineEnd - this.used;
		part.records++;
		this.used = lineEnd;
	}

	private wake(side: 'reader' | 'writer'): void {
		const wake = side === 'reader' ? this.wakeReader : this.wakeWriter;
		if (side === 'reader') this.wakeReader = undefined;
		else this.wakeWriter = undefined;
		wake?.();
	}
}

const EMPTY = Buffer.alloc(0);
