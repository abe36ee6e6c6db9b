import { itemTriggerChecks } from '../checks/item-trigger';
import type { Check } from '../checks/types';

export interface Shard {
	/** Undefined for the version's main run; else the name of the instance it gets (folder suffix, setup steps). */
	name?: string;
	checks: Check[];
}

/**
 * A version's checks in the runs that go side by side (E2E_SIDE_BY_SIDE=1, as CI runs the suite). The Item Trigger
 * checks spend minutes waiting for n8n's schedule (2.x polls at most once a minute: ~10 min of a version's run, with
 * an idle CPU), so they get an n8n and a sandbox of their own and wait while the other checks run. They share nothing
 * with the others: each resets the sandbox and uses its own workflows; their order among themselves is kept (Fetch
 * Test Event reads the memory the first one left).
 */
export function shardsOf(checks: Check[]): Shard[] {
	const waiting = new Set(itemTriggerChecks);
	const shards: Shard[] = [
		{ checks: checks.filter((c) => !waiting.has(c)) },
		{ name: 'item-trigger', checks: checks.filter((c) => waiting.has(c)) },
	];
	return shards.filter((s) => s.checks.length > 0);
}
