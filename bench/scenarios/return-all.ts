// Item → Get Many, Return All of 10,000 approved items, 100 per page (the sandbox's maximum): 100 pages, one
// after the other (each needs the previous page's cursor), at 20 req/s.
import type { Scenario } from '../scenario';

const COUNT = 10_000;
const PAGE_SIZE = 100;

export const returnAllScenario: Scenario = {
	id: 'return-all-10000-20rps',
	title: 'Return All 10,000 records (page size 100) @ 20 req/s',
	rateLimit: { rate: 20, burst: 20, retryAfter: 'seconds' },
	prepare: async (admin) => {
		const seeded = await admin.seedItems({ count: COUNT, status: 'approved', skuPrefix: 'ALL-' });
		const wanted = new Set(seeded.map((item) => item.item_id));
		return {
			parameters: { resource: 'item', operation: 'getAll', validationStatus: 'approved', returnAll: true, listOptions: { pageSize: PAGE_SIZE } },
			inputItems: [{}],
			minRequests: Math.ceil(COUNT / PAGE_SIZE),
			// Each seeded record once: a record missing, or returned twice in place of another, is lost.
			lost: async (result) => wanted.size - new Set(result.outputs.map((json) => json.item_id).filter((id) => wanted.has(id as number))).size,
		};
	},
};
