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

import type { LineEncoder } from './fileEncoding';
import type { RecordFeed } from './recordFeed';

type Listener = (...args: unknown[]) => void;

/** Chunks of about this many characters reach storage (a page of 100 records is ~20-60 KB). */
const CHUNK_CHARS = 64 * 1024;

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

	private async *chunks(): AsyncGenerator<Buffer> {
		let pending = this.encoder.start;
		this.bytes = Buffer.byteLength(pending);
		for (;;) {
			this.checkCancelled();
			let record = this.feed.peekNow();
			if (record === undefined) {
				// Storage gets what is ready while the next page is fetched.
				if (pending !== '') yield Buffer.from(pending);
				pending = '';
				record = await this.feed.peek();
				if (record === undefined) break;
			}
			const line = this.encoder.line(record);
			const size = Buffer.byteLength(line);
			if (this.records > 0 && this.bytes + size > this.maxBytes) {
				this.full = true;
				break;
			}
			this.feed.take();
			pending += line;
			this.bytes += size;
			this.records++;
			if (pending.length >= CHUNK_CHARS) {
				yield Buffer.from(pending);
				pending = '';
			}
		}
		this.checkCancelled();
		if (pending !== '') yield Buffer.from(pending);
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
