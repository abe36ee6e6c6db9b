// The item scenarios' input: the integration tests' mapping and rows (test/integration/item-input.ts).
import type { INodeParameters } from 'n8n-workflow';

import { ITEM_PARAMETERS_FROM_JSON, validItem } from '../../test/integration/item-input';

export { ITEM_PARAMETERS_FROM_JSON };

/** Item → Create or Update into the sandbox's consignment, every field from the input row. */
export const UPSERT_PARAMETERS: INodeParameters = {
	resource: 'item',
	operation: 'upsert',
	consignmentId: { __rl: true, mode: 'id', value: 'cons_12345' },
	...ITEM_PARAMETERS_FROM_JSON,
};

/** A complete, valid item input for `sku` (what a non-approved item's PATCH and a creation need). */
export const itemRow = validItem;

/** The price the update scenarios set: an item that has it was updated. */
export const NEW_PRICE = 111100;

/** Items of the sandbox whose vendor_sku starts with `prefix` and whose price is NEW_PRICE. */
export async function countWithNewPrice(admin: { state(): Promise<{ items: Array<{ vendor_sku: string; price: number }> }> }, prefix: string) {
	return (await admin.state()).items.filter((item) => item.vendor_sku.startsWith(prefix) && item.price === NEW_PRICE).length;
}
