/**
 * One part of the file, handed to n8n's `prepareBinaryData` as a stream of the chunks FileParts queued for it.
 * Community packages may not import Node's `stream` (n8n's community-package lint), so this is the two faces of a
 * Readable that n8n's binary storage uses:
 * - async iteration: the filesystem mode's `fs.writeFile(path, stream)` pulls chunk by chunk;
 * - 'data'/'end'/'error'/'close' events and `destroy()`: the in-memory (1.x default) and database (2.x queue mode)
 *   modes read the stream whole into one Buffer (`binaryToBuffer`), which is why parts have a size limit.
 */
import type { FileParts, FilePart } from './fileParts';

type Listener = (...args: unknown[]) => void;

export class PartStream {
	readonly readable = true;
	private listeners = new Map<string, Array<{ listener: Listener; once: boolean }>>();
	private flowing = false;
	private destroyed = false;

	constructor(
		private readonly parts: FileParts,
		private readonly part: FilePart,
		private readonly checkCancelled: () => void,
	) {}

	[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
		return this.chunks();
	}

	private async *chunks(): AsyncGenerator<Buffer> {
		for (;;) {
			this.checkCancelled();
			const chunk = await this.parts.nextChunk(this.part);
			if (chunk === undefined) return;
			yield chunk;
		}
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
			this.parts.fail(error ?? new Error('n8n stopped reading the file before its end'));
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
