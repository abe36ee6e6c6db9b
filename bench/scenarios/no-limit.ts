// No rate limit, 20 ms latency per request: Item → Update of 2,000 items with this code and with the code before
// the transport (bd6bbb8: every item's request at once, no queue). The queue must not cost more than 5 %.
import type { Scenario } from '../scenario';
import { updateWorkload } from './update';

/** The last commit before the shared transport (nodes/shared/transport) replaced the three request helpers. */
export const BEFORE_TRANSPORT = 'bd6bbb8';

const base = { latencyMs: 20, repeat: 3, prepare: updateWorkload };

export const noLimitBefore: Scenario = {
	...base,
	id: `no-limit-update-2000-${BEFORE_TRANSPORT}`,
	title: `No limit, 20 ms latency: Update 2,000 items, code before the transport (${BEFORE_TRANSPORT})`,
	code: BEFORE_TRANSPORT,
};

export const noLimitNow: Scenario = {
	...base,
	id: 'no-limit-update-2000',
	title: 'No limit, 20 ms latency: Update 2,000 items, this code',
	compareTo: { id: noLimitBefore.id, factor: 1.05 },
};
