/**
 * What a Create or Update row can come to before the batches (rowDecision.ts decides it, upsertRun.ts records it). A
 * leaf, so that the run and the decision share these words without one importing the other.
 */
import type { RowResult } from '../helpers/batchRunner';
import type { PendingCreation } from '../helpers/itemCreations';

/**
 * `shown`: the row is a creation remembered as submitted, and the service now shows the item (sentMemory.ts);
 * `noRequest`: a preview's verdict (itemPreview.ts).
 */
export type Outcome = RowResult | { batch: PendingCreation } | { ok: 'shown' };

/** Nothing sent for the row: the service shows it as the row says (or the memory vouches for it). */
export const unchangedResult = (vendorSku: string, preview: boolean, itemId?: string | number): RowResult => ({
	ok: 'noRequest',
	outcome: 'unchanged',
	json: {
		operation: 'unchanged',
		status: 'unchanged',
		...(itemId === undefined ? {} : { item_id: itemId }),
		vendor_sku: vendorSku,
		...(preview ? { preview: 'unchanged' } : {}),
	},
});
