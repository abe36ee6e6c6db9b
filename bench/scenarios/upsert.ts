// Item → Upsert of 1,000 rows whose items exist (non-approved): per row one GET by vendor_sku, then one PATCH,
// so 2,000 requests at 20 req/s.
import type { Scenario } from '../scenario';
import { countWithNewPrice, itemRow, NEW_PRICE, UPSERT_PARAMETERS } from './item-rows';

const COUNT = 1_000;
const SKU_PREFIX = 'UPS-';

export const upsertScenario: Scenario = {
	id: 'upsert-1000-20rps',
	title: 'Upsert 1,000 rows (existing items) @ 20 req/s',
	rateLimit: { rate: 20, burst: 20, retryAfter: 'seconds' },
	prepare: async (admin) => {
		const seeded = await admin.seedItems({ count: COUNT, status: 'pending', skuPrefix: SKU_PREFIX });
		return {
			parameters: UPSERT_PARAMETERS,
			inputItems: seeded.map((item) => itemRow(item.vendor_sku, { price: NEW_PRICE })),
			minRequests: 2 * COUNT,
			lost: async () => COUNT - (await countWithNewPrice(admin, SKU_PREFIX)),
		};
	},
};
