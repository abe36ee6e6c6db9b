// Issue 9's scenarios: Return All of 100,000 records with the page size left to the node (100 accepted; or only 20,
// above it a 400), and Upsert of 5,000 rows against 20,000 existing items (the listings read once, no lookup).
// No rate limit: these measure requests, wall time and the client's peak memory.
import type { SandboxAdmin } from '../../test/sandbox';
import type { ClientResult, Scenario } from '../scenario';
import { countWithNewPrice, itemRow, NEW_PRICE, UPSERT_PARAMETERS } from './item-rows';

const RECORDS = 100_000;

async function returnAllWorkload(admin: SandboxAdmin, minRequests: number) {
	const { first_item_id: first } = await admin.seedManyItems({ count: RECORDS, status: 'approved', skuPrefix: 'BIG-' });
	return {
		// No Page Size: the node chooses (100, or 20 after a refusal).
		parameters: { resource: 'item', operation: 'getAll', validationStatus: 'approved', returnAll: true },
		inputItems: [{}],
		minRequests,
		// Each seeded record once (the 26 approved demo items come first).
		lost: async (result: ClientResult) => {
			const ids = new Set(result.outputs.map((json) => Number(json.item_id)).filter((id) => id >= first && id < first + RECORDS));
			return RECORDS - ids.size;
		},
	};
}

export const returnAll100kScenario: Scenario = {
	id: 'return-all-100000',
	title: 'Return All 100,000 records, page size left to the node (service accepts 100)',
	maxRequests: 1_001 + 1, // + the token exchange
	prepare: async (admin) => await returnAllWorkload(admin, Math.ceil((RECORDS + 26) / 100)),
};

export const returnAll100kMax20Scenario: Scenario = {
	id: 'return-all-100000-max20',
	title: 'Return All 100,000 records, service accepts only 20 (400 above)',
	maxRequests: 5_001 + 1 + 1, // + the refused request + the token exchange
	prepare: async (admin) => {
		await admin.setPaging({ maxPageSize: 20, aboveMaximum: 'reject' });
		return await returnAllWorkload(admin, Math.ceil((RECORDS + 26) / 20));
	},
};

const EXISTING = 20_000;
const ROWS = 5_000;

export const upsertAgainstManyScenario: Scenario = {
	id: 'upsert-5000-vs-20000',
	title: 'Upsert 5,000 rows against 20,000 existing items',
	maxRequests: ROWS + 300 + 1, // writes + other requests + the token exchange
	prepare: async (admin) => {
		await admin.seedManyItems({ count: EXISTING / 2, status: 'pending', skuPrefix: 'UPX-', firstNumber: 1 });
		await admin.seedManyItems({ count: EXISTING / 2, status: 'approved', skuPrefix: 'UPX-', firstNumber: EXISTING / 2 + 1 });
		return {
			parameters: UPSERT_PARAMETERS,
			// 5,000 of the pending items, each with a new price (a PATCH each).
			inputItems: Array.from({ length: ROWS }, (_, i) => itemRow(`UPX-${i + 1}`, { price: NEW_PRICE })),
			minRequests: ROWS + Math.ceil((EXISTING / 2 + 26) / 100) * 2,
			lost: async () => ROWS - (await countWithNewPrice(admin, 'UPX-')),
		};
	},
};
