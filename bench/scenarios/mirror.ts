// Issue 29: Create or Update as a mirror. A shop of 10,000 pieces all listed (approved), 100 sold in the shop since:
// the source has 9,900 rows, and the 100 others are set to 0. The rows' approved items take nothing the rows
// change (no request), so what is measured is the mirror: the catalogue read once (no lookup) plus 100 PATCHes.
import type { Scenario } from '../scenario';
import { itemRow, UPSERT_PARAMETERS } from './item-rows';

const LISTED = 10_000;
const REMOVED = 100;
const PREFIX = 'MRR-';
/** The approved listing at 100 per page, and the (empty) non-approved listing's one page. */
const CATALOGUE_READ = Math.ceil(LISTED / 100) + 1;

const removed = (n: number) => n % (LISTED / REMOVED) === 0;

export const mirrorScenario: Scenario = {
	id: 'mirror-10000-minus-100',
	title: 'Mirror: 9,900 source rows against 10,000 listed (100 removed → set to 0)',
	maxRequests: CATALOGUE_READ + REMOVED,
	prepare: async (admin) => {
		await admin.seedManyItems({ count: LISTED, status: 'approved', skuPrefix: PREFIX, firstNumber: 1 });
		const numbers = Array.from({ length: LISTED }, (_, i) => i + 1);
		return {
			parameters: { ...UPSERT_PARAMETERS, missingItems: 'setQuantityToZero' },
			inputItems: numbers.filter((n) => !removed(n)).map((n) => itemRow(`${PREFIX}${n}`, { quantity: 1 })),
			minRequests: CATALOGUE_READ + REMOVED,
			// The removed items not at 0, plus any other item set to 0 by mistake.
			lost: async () => {
				const items = (await admin.state()).items.filter((item) => item.vendor_sku.startsWith(PREFIX));
				return items.filter((item) => removed(Number(item.vendor_sku.slice(PREFIX.length))) !== (item.quantity === 0)).length;
			},
		};
	},
};
