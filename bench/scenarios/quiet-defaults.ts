// Issue 35: a scheduled run over an unchanged source with the defaults a new node gets (version 1.3: Only Send What
// Changed on) writes nothing. The mirror case is the issue's: 950 source rows against 1,000 listed items, 180 of them
// non-approved, two production runs before the measured one; beside it the same at version 1.2 (Only Send What
// Changed off, as nodes saved before keep it), which PATCHes every non-approved row on every run.
import type { INodeParameters } from 'n8n-workflow';

import { contractColumnsRow } from '../../test/integration/item-input';
import type { ClientResult, Scenario, Workload } from '../scenario';
import type { SandboxAdmin } from '../../test/sandbox';

/** A node from version 1.1 on reads the input by the contract's names (Map Automatically), prices in cents here. */
const NEW_NODE_UPSERT: INodeParameters = {
	resource: 'item',
	operation: 'upsert',
	consignmentId: { __rl: true, mode: 'id', value: 'cons_12345' },
	priceUnit: 'cents',
};

/** A write in the measured run is a request sent for nothing: counted as lost work. */
async function writesOfMeasuredRun(result: ClientResult, admin: SandboxAdmin): Promise<number> {
	return (await admin.requests()).filter((entry) => Date.parse(entry.at) >= result.startedAt && entry.method !== 'GET').length;
}

const NON_APPROVED = 180;
const APPROVED = 820;
const REMOVED = 50;

function unchangedMirror(typeVersion: number): Scenario {
	return {
		id: `mirror-950-unchanged-v${typeVersion}`,
		title: `Mirror of an unchanged source: 950 rows against 1,000 listed (180 non-approved), node version ${typeVersion}'s defaults`,
		prepare: async (admin): Promise<Workload> => {
			const pending = await admin.seedItems({ count: NON_APPROVED, status: 'pending', skuPrefix: 'QUIET-P-' });
			const approved = await admin.seedItems({ count: APPROVED, status: 'approved', skuPrefix: 'QUIET-A-' });
			const kept = [...pending, ...approved.slice(REMOVED)];
			return {
				parameters: { ...NEW_NODE_UPSERT, missingItems: 'setQuantityToZero' },
				typeVersion,
				inputItems: kept.map((item) => contractColumnsRow(item.vendor_sku, { quantity: 1 })),
				priorRuns: { count: 2 },
				// One read of both listings at 100 a page (the mirror reads them in full).
				minRequests: Math.ceil(NON_APPROVED / 100) + Math.ceil(APPROVED / 100),
				lost: writesOfMeasuredRun,
			};
		},
	};
}

const rerunNewNode: Scenario = {
	id: 'rerun-sync-2000-new-node',
	title: 'Re-run a finished sync of 2,000 rows with a new node (version 1.3, defaults) @ 20 req/s',
	rateLimit: { rate: 20, burst: 20, retryAfter: 'seconds' },
	prepare: async (admin): Promise<Workload> => {
		const seeded = await admin.seedItems({ count: 1_000, status: 'pending', skuPrefix: 'SYNC-' });
		const skus = [...seeded.map((item) => item.vendor_sku), ...Array.from({ length: 1_000 }, (_, n) => `SYNC-NEW-${n + 1}`)];
		return {
			parameters: NEW_NODE_UPSERT,
			typeVersion: 1.3,
			inputItems: skus.map((sku) => contractColumnsRow(sku)),
			priorRuns: { count: 2 },
			minRequests: 0,
			lost: writesOfMeasuredRun,
		};
	},
};

export const quietDefaultsScenarios: Scenario[] = [rerunNewNode, unchangedMirror(1.3), unchangedMirror(1.2)];
