// Create or Update with Only Send What Changed, run again over a sync that already finished (issue 25): 2,000 rows,
// 1,000 existing items updated and 1,000 new ones created by the first production run, confirmed by the second.
// The measured third run writes nothing; when its check against the service is due (every 6 hours) it reads the
// listings and still writes nothing.
import type { Scenario, Workload } from '../scenario';
import { itemRow, NEW_PRICE, UPSERT_PARAMETERS } from './item-rows';

const EXISTING = 1_000;
const NEW = 1_000;

function rerun(checkDue: boolean): Scenario {
	return {
		id: checkDue ? 'rerun-sync-2000-check-due' : 'rerun-sync-2000',
		title: `Re-run a finished sync of 2,000 rows (Only Send What Changed${checkDue ? ', 6-hour check due' : ''}) @ 20 req/s`,
		rateLimit: { rate: 20, burst: 20, retryAfter: 'seconds' },
		prepare: async (admin): Promise<Workload> => {
			const seeded = await admin.seedItems({ count: EXISTING, status: 'pending', skuPrefix: 'SYNC-' });
			const rows = [
				...seeded.map((item) => itemRow(item.vendor_sku, { price: NEW_PRICE })),
				...Array.from({ length: NEW }, (_, n) => itemRow(`SYNC-NEW-${n + 1}`, { price: NEW_PRICE })),
			];
			return {
				parameters: { ...UPSERT_PARAMETERS, onlySendWhatChanged: true },
				inputItems: rows,
				priorRuns: { count: 2, checkDue },
				// The check reads both listings (2,026 non-approved + 26 approved items, pages of 100); without it, nothing.
				minRequests: checkDue ? 22 : 0,
				// A write in the measured run is a row sent again for nothing: counted as lost work.
				lost: async (result) => result.outputs.filter((json) => json.operation !== 'unchanged').length,
			};
		},
	};
}

export const rerunSyncScenarios: Scenario[] = [rerun(false), rerun(true)];
