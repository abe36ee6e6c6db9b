// The item scenarios' input: the integration tests' mapping and rows (test/integration/item-input.ts).
import { validItem } from '../../test/integration/item-input';

export { ITEM_PARAMETERS_FROM_JSON } from '../../test/integration/item-input';

/** A complete, valid item input for `sku` (what a non-approved item's PATCH and a creation need). */
export const itemRow = validItem;

/** The price the update scenarios set: an item that has it was updated. */
export const NEW_PRICE = 111100;

/** Items of the sandbox whose vendor_sku starts with `prefix` and whose price is NEW_PRICE. */
export async function countWithNewPrice(admin: { state(): Promise<{ items: Array<{ vendor_sku: string; price: number }> }> }, prefix: string) {
	return (await admin.state()).items.filter((item) => item.vendor_sku.startsWith(prefix) && item.price === NEW_PRICE).length;
}
