// Item → Create of 5,000 new items: 10 POSTs of 500 (the service's maximum per request) at 1 req/s.
import type { Scenario } from '../scenario';
import { ITEM_PARAMETERS_FROM_JSON, itemRow } from './item-rows';

const COUNT = 5_000;
const SKU_PREFIX = 'NEW-';

export const createScenario: Scenario = {
	id: 'create-5000-1rps',
	title: 'Create 5,000 items (10 POSTs) @ 1 req/s',
	rateLimit: { rate: 1, burst: 1, retryAfter: 'seconds' },
	prepare: async (admin) => ({
		parameters: {
			resource: 'item',
			operation: 'create',
			consignmentId: { __rl: true, mode: 'id', value: 'cons_12345' },
			...ITEM_PARAMETERS_FROM_JSON,
		},
		inputItems: Array.from({ length: COUNT }, (_, i) => itemRow(`${SKU_PREFIX}${i + 1}`)),
		minRequests: Math.ceil(COUNT / 500),
		lost: async () => COUNT - (await admin.state()).items.filter((item) => item.vendor_sku.startsWith(SKU_PREFIX)).length,
	}),
};
