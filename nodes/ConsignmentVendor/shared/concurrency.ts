/**
 * Runs `work` for every index 0 … count − 1, at most `limit` at a time, starting them in order. Custom operations
 * hand the transport as many requests at once as its queue may have in flight; the queue paces them.
 */
export async function forEachConcurrently(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
	let next = 0;
	let failed = false;
	const worker = async () => {
		let finished = false;
		try {
			while (next < count && !failed) await work(next++);
			finished = true;
		} finally {
			// A `work` that threw: the other workers start nothing more, and Promise.all rejects with its error.
			if (!finished) failed = true;
		}
	};
	await Promise.all(Array.from({ length: Math.max(0, Math.min(limit, count)) }, worker));
}

/** `work` over `items`, at most `limit` at a time; the results in input order. */
export async function mapConcurrently<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
	const results = new Array<R>(items.length);
	await forEachConcurrently(items.length, limit, async (index) => {
		results[index] = await work(items[index]);
	});
	return results;
}
