/**
 * The hand-off between the paginator (which pushes each page's records at once) and the file parts (which pull
 * them as storage takes the bytes). The paginator asks for room before each page, so at most about
 * `maxWaiting` records plus one page are ever held: memory stays at a page or two whatever the listing's size.
 */
export class RecordFeed<T> {
	private queue: T[] = [];
	private head = 0;
	private ended = false;
	private failure: { error: unknown } | undefined;
	private wakeConsumer: (() => void) | undefined;
	private wakeProducer: (() => void) | undefined;

	constructor(private readonly maxWaiting: number) {}

	get waiting(): number {
		return this.queue.length - this.head;
	}

	push(record: T): void {
		this.queue.push(record);
		this.wake('consumer');
	}

	/** Resolves once fewer than `maxWaiting` records wait; throws once the consumer gave up (`fail`). */
	async room(): Promise<void> {
		while (this.waiting >= this.maxWaiting && !this.failure) {
			await new Promise<void>((resolve) => (this.wakeProducer = resolve));
		}
		if (this.failure) throw this.failure.error;
	}

	end(): void {
		this.ended = true;
		this.wake('consumer');
	}

	/** Either side failed: the other stops at its next step with this error. */
	fail(error: unknown): void {
		this.failure ??= { error };
		this.wake('consumer');
		this.wake('producer');
	}

	/** The next record without taking it, undefined at the end; throws the failure. Synchronous when one waits. */
	peekNow(): T | undefined {
		if (this.failure) throw this.failure.error;
		return this.waiting > 0 ? this.queue[this.head] : undefined;
	}

	/** The next record without taking it once one arrives; undefined when the listing ended. */
	async peek(): Promise<T | undefined> {
		for (;;) {
			const record = this.peekNow();
			if (record !== undefined || this.ended) return record;
			await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
		}
	}

	/** Every record waiting now, without taking them (a page: what the CSV header is chosen from). */
	waitingNow(): readonly T[] {
		return this.queue.slice(this.head);
	}

	take(): void {
		this.head++;
		// Compact now and then rather than shift() each record (O(n) per shift on a long queue).
		if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
			this.queue = this.queue.slice(this.head);
			this.head = 0;
		}
		if (this.waiting < this.maxWaiting) this.wake('producer');
	}

	get finished(): boolean {
		return this.ended && this.waiting === 0;
	}

	private wake(side: 'consumer' | 'producer'): void {
		const wake = side === 'consumer' ? this.wakeConsumer : this.wakeProducer;
		if (side === 'consumer') this.wakeConsumer = undefined;
		else this.wakeProducer = undefined;
		wake?.();
	}
}
