// Item → Update of 2,000 non-approved items (one PATCH each, every field, a new price) against a token bucket
// of `rate` req/s, burst = rate, with Retry-After (seconds) and without: issue 8's original failure, at scale.
import type { RetryAfterForm, SandboxAdmin } from '../../test/sandbox';
import type { Scenario, Workload } from '../scenario';
import { countWithNewPrice, ITEM_PARAMETERS_FROM_JSON, itemRow, NEW_PRICE } from './item-rows';

const SKU_PREFIX = 'UPD-';

/** 2,000 (or `count`) pending items, each updated with a new price by one PATCH. */
export async function updateWorkload(admin: SandboxAdmin, count = 2_000): Promise<Workload> {
	const seeded = await admin.seedItems({ count, status: 'pending', skuPrefix: SKU_PREFIX });
	return {
		parameters: { resource: 'item', operation: 'update', itemId: '={{ $json.itemId }}', fieldsToSend: 'all', ...ITEM_PARAMETERS_FROM_JSON },
		inputItems: seeded.map((item) => ({ itemId: item.item_id, ...itemRow(item.vendor_sku, { price: NEW_PRICE }) })),
		minRequests: count,
		lost: async () => count - (await countWithNewPrice(admin, SKU_PREFIX)),
	};
}

function limited(rate: number, retryAfter: RetryAfterForm): Scenario {
	const header = retryAfter === 'none' ? 'no Retry-After' : 'Retry-After';
	return {
		id: `update-2000-${rate}rps-${retryAfter === 'none' ? 'no-retry-after' : 'retry-after'}`,
		title: `Update 2,000 items @ ${rate} req/s, ${header}`,
		rateLimit: { rate, burst: rate, retryAfter },
		prepare: async (admin) => await updateWorkload(admin),
	};
}

export const updateScenarios: Scenario[] = [100, 20, 5].flatMap((rate) => [limited(rate, 'seconds'), limited(rate, 'none')]);
