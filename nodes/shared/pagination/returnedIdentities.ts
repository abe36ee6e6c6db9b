/**
 * The identities of the records a listing handed over, for the paginator to skip them when it restarts after an
 * expired cursor. Kept as the id values per id field (a whole-number id is a small integer in V8, a few bytes, not a
 * string such as "id:900001"): an export of 1,000,000 records keeps ~4-8 MB here instead of ~50 MB, and builds the
 * lookup set only when a cursor actually expired.
 */
type IdValue = number | string;

/** A whole-number id and its text form are one identity ("7" and 7), as the service may send either. */
function normalised(id: unknown): IdValue {
	if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
	const text = String(id);
	const asNumber = Number(text);
	return Number.isSafeInteger(asNumber) && String(asNumber) === text ? asNumber : text;
}

export class ReturnedIdentities {
	/** Since the last restart, per id field, in order. */
	private attempt = new Map<string, IdValue[]>();
	/** Everything handed over before the last restart. */
	private before: Map<string, Set<IdValue>> | undefined;

	/** Whether a restart happened: from then on every record needs an identity. */
	get restarted(): boolean {
		return this.before !== undefined;
	}

	note(key: string, id: unknown): void {
		let values = this.attempt.get(key);
		if (!values) this.attempt.set(key, (values = []));
		values.push(normalised(id));
	}

	has(key: string, id: unknown): boolean {
		return this.before?.get(key)?.has(normalised(id)) ?? false;
	}

	/** A restart: what this attempt returned joins what is skipped from now on. */
	restart(): void {
		this.before ??= new Map();
		for (const [key, values] of this.attempt) {
			let set = this.before.get(key);
			if (!set) this.before.set(key, (set = new Set()));
			for (const value of values) set.add(value);
		}
		this.attempt = new Map();
	}
}
