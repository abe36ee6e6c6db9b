// A history's upgrade (steps.ts `upgrade`): the workflow's saved static data rewritten to the form an older version of
// the node saved its memory in (statusMemory.ts), and what the trigger no longer knows from it, as
// docs/item-trigger.md documents it. The statuses are kept as this version read them: the upgrade stands for an older
// version that read what this one read and saved it its own way.
import type { IDataObject } from 'n8n-workflow';

import { MEMORY_KEY } from '../../../nodes/ConsignmentVendorItemTrigger/pollItemStatuses';
import { PARTIAL_MEMORY_VERSION } from '../../../nodes/ConsignmentVendorItemTrigger/statusMemory';
import type { OlderMemory } from './steps';

/** Which fields each older version did not write yet. */
const NOT_WRITTEN: Record<OlderMemory, string[]> = {
	beforeWrites: ['writes'],
	beforeWatching: ['writes', 'watching'],
	beforeSince: ['writes', 'watching', 'since'],
};

export interface UpgradeLoss {
	/**
	 * A memory of complete reads without `since` (nor `watching`): until the first complete poll after the upgrade, an
	 * item it does not hold is a `new_item`, as it was in that version, also one a read missed (it moved between the
	 * listings while they were read) or forgot. (With Status Changed only, the first poll after a restart announces
	 * such an item as a change from an unknown status: statusDiff.ts `unseenChange`.)
	 */
	unheldNewUntilFirstPoll: boolean;
	/**
	 * Without `watching`, the trigger takes a memory's `since` for when it started watching (statusMemory.ts): a later
	 * start than the true one. An item added in between that the memory does not hold (listed late, or missed by a
	 * read) may come out as a change from an unknown status instead of a `new_item` (with New Item only: not at all).
	 */
	startMovedLater: boolean;
	/**
	 * A partial baseline without `since`: items it did not read are taken in silently by its first complete read, as
	 * the older version did (docs/item-trigger.md, What can be lost).
	 */
	partialWithoutSince: boolean;
}

/** Rewrites `saved` (a workflow's static data) in place; what the trigger lost with it (undefined: no memory saved). */
export function rewriteAsOlderMemory(saved: IDataObject, from: OlderMemory): UpgradeLoss | undefined {
	let loss: UpgradeLoss | undefined;
	for (const nodeData of Object.values(saved)) {
		const memory = nodeData !== null && typeof nodeData === 'object' ? ((nodeData as IDataObject)[MEMORY_KEY] as IDataObject | undefined) : undefined;
		if (memory === undefined || memory === null || typeof memory !== 'object') continue;
		for (const field of NOT_WRITTEN[from]) delete memory[field];
		const partial = memory.v === PARTIAL_MEMORY_VERSION;
		loss = {
			unheldNewUntilFirstPoll: from === 'beforeSince' && !partial,
			// A partial baseline's `watching` is its `since` (statusMemory.ts): the start moves only with it.
			startMovedLater: from === 'beforeSince' || (from === 'beforeWatching' && !partial),
			partialWithoutSince: from === 'beforeSince' && partial,
		};
	}
	return loss;
}
