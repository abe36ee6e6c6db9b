/**
 * A service may send `vendor_sku` (and ids) as a JSON number: "ids come as numbers or strings". Every comparison of
 * SKUs goes through these, so `7300100` and `"7300100"` are one SKU, and case is ignored as the service's filter does.
 */
export function skuText(value: unknown): string | null {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The key a SKU is remembered and matched under; null for a value that is no SKU. */
export function skuKey(value: unknown): string | null {
	return skuText(value)?.toLowerCase() ?? null;
}
