/**
 * THE place where SKUs are compared: the catalogue, the per-row lookups, the mirror and the memories all go through it.
 *
 * A service may send `vendor_sku` (and ids) as a JSON number: "ids come as numbers or strings". A number shows no
 * leading zeros, so a listed `73001` may be the item of a row "0073001", "073001" or "73001": a listed number matches
 * every digit-only row SKU of its value. Two texts match when equal ignoring case and surrounding spaces, as the
 * service's filter does; texts that differ in their leading zeros ("0073001", "73001") are two SKUs, as the service
 * that showed them as text holds them. Where one listed number could be several input rows (or a row several listed
 * items), the callers refuse the row (AmbiguousSkuError): which one it is cannot be known, and a guess writes to the
 * wrong item.
 */
export function skuText(value: unknown): string | null {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The key a SKU is filed and remembered under (its text, lower-cased); null for a value that is no SKU. */
export function skuKey(value: unknown): string | null {
	return skuText(value)?.toLowerCase() ?? null;
}

/** A digit-only SKU's value without leading zeros ("0073001" → "73001", "000" → "0"); undefined for any other. */
function digitsOf(text: string): string | undefined {
	return /^\d+$/.test(text) ? text.replace(/^0+(?=\d)/, '') : undefined;
}

/** A SKU the service sent as a JSON number, whose text (its digits) cannot show leading zeros. */
function digitsOfListedNumber(listed: unknown): string | undefined {
	return typeof listed === 'number' && Number.isSafeInteger(listed) && listed >= 0 ? String(listed) : undefined;
}

/** Whether a SKU as the service listed it is the SKU of a row (`rowSku`, as the row gives it). */
export function skuMatches(listed: unknown, rowSku: string): boolean {
	const key = skuKey(listed);
	if (key === null) return false;
	if (key === skuKey(rowSku)) return true;
	const listedDigits = digitsOfListedNumber(listed);
	return listedDigits !== undefined && listedDigits === digitsOf(rowSku.trim());
}

/**
 * The records of `byKey` (filed by `skuKey` of their listed SKU) that match the row's SKU: those filed under its own
 * key, and for a digit-only SKU the numbers filed under its digits without leading zeros.
 */
export function recordsMatching<T>(byKey: ReadonlyMap<string, T[]>, rowSku: string, listedSkuOf: (record: T) => unknown): T[] {
	return skuFilterForms(rowSku).flatMap((form) => (byKey.get(form.toLowerCase()) ?? []).filter((record) => skuMatches(listedSkuOf(record), rowSku)));
}

/**
 * What to ask the service's `vendor_sku` filter for a row, in order: its own text, then for a digit-only SKU with
 * leading zeros its digits without them. A service that keeps such SKUs as numbers (it lists them so) may compare the
 * filter with `73001` and find nothing for `0073001`; the contract does not say. Asked only while nothing matched.
 */
export function skuFilterForms(rowSku: string): string[] {
	const text = rowSku.trim();
	const digits = digitsOf(text);
	return digits !== undefined && digits !== text ? [text, digits] : [text];
}

/**
 * The SKU to send back to the service for a found item: its own spelling where it listed text (its filter ignores
 * case, a PATCH may not change the SKU); the row's where it listed a number, which lost any leading zeros.
 */
export function skuAsSent(listed: unknown, rowSku: string): string {
	return digitsOfListedNumber(listed) !== undefined ? rowSku.trim() : skuText(listed) ?? rowSku.trim();
}

/** Every SKU of the input, to tell which rows a listed SKU could be (none: not in the input; several: ambiguous). */
export class InputSkus {
	/** Each distinct SKU (lower-cased) by its key, and the digit-only ones by their digits without leading zeros. */
	private readonly byKey = new Map<string, string>();

	private readonly byDigits = new Map<string, Set<string>>();

	constructor(skus: Iterable<unknown>) {
		for (const sku of skus) {
			const key = skuKey(sku);
			if (key === null) continue;
			this.byKey.set(key, key);
			const digits = digitsOf(key);
			if (digits === undefined) continue;
			const forms = this.byDigits.get(digits) ?? new Set<string>();
			forms.add(key);
			this.byDigits.set(digits, forms);
		}
	}

	/** The distinct input SKUs (lower-cased) a listed SKU is, by `skuMatches`. */
	rowsMatching(listed: unknown): string[] {
		const key = skuKey(listed);
		if (key === null) return [];
		const listedDigits = digitsOfListedNumber(listed);
		const forms = new Set(listedDigits === undefined ? [] : this.byDigits.get(listedDigits) ?? []);
		if (this.byKey.has(key)) forms.add(key);
		return [...forms];
	}

	/** Whether the input holds the listed SKU in any of its forms. */
	has(listed: unknown): boolean {
		return this.rowsMatching(listed).length > 0;
	}
}

/**
 * Thrown when a row cannot be told to one item: its SKU matches several listed items, or the one it matches is a
 * listed number that several input rows could be (leading zeros, InputSkus). Acting on one at random would write
 * to the wrong item. `explained` and `advice` are what the row's error says.
 */
export class AmbiguousSkuError extends Error {
	readonly explained: string;

	readonly advice: string;

	constructor(
		readonly vendorSku: string,
		readonly itemIds: string[],
		rows: string[] = [],
	) {
		const ofRows = rows.length > 1;
		super(
			ofRows
				? `vendor_sku ${vendorSku} could be any of the input rows ${rows.join(', ')}: the service lists item_id ${itemIds.join(', ')} under a SKU without leading zeros (a JSON number)`
				: `vendor_sku ${vendorSku} matches ${itemIds.length} items (item_id ${itemIds.join(', ')})`,
		);
		this.name = 'AmbiguousSkuError';
		this.explained = ofRows
			? `${this.message}, so the node cannot tell which row it is. Nothing was sent for this row`
			: `${this.message}: the service holds ${itemIds.length} items with this SKU, so the node cannot tell which one the row describes. Nothing was sent for this row`;
		this.advice = ofRows
			? 'Keep one of these rows in the input, or give each the SKU as the vendor portal shows it; these rows fail until then, and the item is not set to 0'
			: 'Update the right item with Item → Update (by item_id), and ask the marketplace to remove the extra one; this row fails until then';
	}
}
