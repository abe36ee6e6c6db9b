import { itemTriggerChecks } from '../checks/item-trigger';
import type { Check } from '../checks/types';

export interface Shard {
	/** Undefined for the version's main run; else the name of the instance it gets (folder suffix, setup steps). */
	name?: string;
	checks: Check[];
}

/**
 * n8n 2.x polls at most once a minute, so its Item Trigger checks wait ~20 minutes with an idle CPU: dealt over three
 * instances of ~6 minutes each (measured on 2 cores). A check matches the first group whose test says so; one no
 * group names (a new check) goes to the last. Within a group the suite's order is kept: Fetch Test Event runs after
 * the first check, which counts every execution of the workflow they share.
 */
const SPREAD_ON_2X: Array<(name: string) => boolean> = [
	(name) => name.startsWith('item trigger: activated') || name.startsWith('item trigger Fetch Test Event') || name.includes("n8n's start-up"),
	(name) => name.includes('deactivated and activated again') || name.startsWith('example item-status-notify'),
	() => true,
];

/**
 * A version's checks in the runs that go side by side (E2E_SIDE_BY_SIDE=1, as CI runs the suite). The Item Trigger
 * checks spend minutes waiting for n8n's schedule, so they get an n8n and a sandbox of their own (three on 2.x) and
 * wait while the other checks run. They share nothing with the others: each instance has its own database and
 * sandbox, and each check resets the sandbox.
 */
export function shardsOf(checks: Check[], version: string): Shard[] {
	const waiting = new Set(itemTriggerChecks);
	const triggers = checks.filter((c) => waiting.has(c));
	const shards: Shard[] = [{ checks: checks.filter((c) => !waiting.has(c)) }];
	if (version.startsWith('1.')) {
		shards.push({ name: 'item-trigger', checks: triggers });
	} else {
		const groups = SPREAD_ON_2X.map(() => [] as Check[]);
		for (const check of triggers) groups[SPREAD_ON_2X.findIndex((matches) => matches(check.name))].push(check);
		groups.forEach((group, i) => shards.push({ name: `item-trigger-${i + 1}`, checks: group }));
	}
	return shards.filter((s) => s.checks.length > 0);
}
