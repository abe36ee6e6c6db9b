/**
 * The queued requests waiting on each cancel signal, with ONE abort listener per signal however many requests
 * use it. A listener per request would stay on the execution's signal after its request settled: a 20,000-row
 * Upsert then held every request (and its body) until the execution ended, and Node warned about too many
 * listeners (MaxListenersExceededWarning) from the eleventh queued request on.
 */
export class CancelWatch<T> {
	private readonly watched = new Map<AbortSignal, { waiting: Set<T>; listener: () => void }>();

	constructor(private readonly onAbort: (waiting: T) => void) {}

	/** Calls `onAbort(waiting)` when `signal` aborts, unless `forget` came first. */
	watch(signal: AbortSignal, waiting: T): void {
		let entry = this.watched.get(signal);
		if (entry === undefined) {
			const listener = () => {
				const aborted = this.watched.get(signal);
				this.watched.delete(signal);
				aborted?.waiting.forEach((each) => this.onAbort(each));
			};
			entry = { waiting: new Set(), listener };
			this.watched.set(signal, entry);
			signal.addEventListener('abort', listener, { once: true });
		}
		entry.waiting.add(waiting);
	}

	/** Stops watching `signal` for `waiting`; the signal's listener goes with the last request that used it. */
	forget(signal: AbortSignal, waiting: T): void {
		const entry = this.watched.get(signal);
		if (entry === undefined || !entry.waiting.delete(waiting) || entry.waiting.size > 0) return;
		this.watched.delete(signal);
		signal.removeEventListener('abort', entry.listener);
	}
}

/** The execution's cancel signal of a node context (none in contexts without one, e.g. the editor's list searches). */
export function cancelSignalOf(context: object): AbortSignal | undefined {
	const getSignal = (context as { getExecutionCancelSignal?: () => AbortSignal | undefined }).getExecutionCancelSignal;
	return typeof getSignal === 'function' ? getSignal.call(context) : undefined;
}
