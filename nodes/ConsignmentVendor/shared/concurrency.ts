/**
 * Runs `work` for every index 0 … count − 1, at most `limit` at a time, starting them in order. Custom operations
 * hand the transport as many requests at once as its queue may have in flight; the queue paces them.
 */
export async function forEachConcurrently(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < count) await work(next++);
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
