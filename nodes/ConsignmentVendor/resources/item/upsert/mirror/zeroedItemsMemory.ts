/**
 * The approved items this workflow set to 0 (Set Their Quantity to 0), in the node's static data: the approved
 * listing shows no quantity, and an approved item's quantity can only go down, so one set to 0 stays at 0. Without
 * this memory every run would PATCH every such item again. n8n saves static data after production runs only, so a
 * manual run sends those PATCHes again (harmless: 0 stays 0).
 * An entry is dropped only when the item is no longer listed (or listed as deleted): an item whose SKU is back in the
 * input is still at 0, and the guard counts only the items it could set to 0 (missingItems.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

const STATIC_DATA_KEY = 'zeroedItems';
/** As sentMemory.ts: n8n reads and writes static data with the workflow row on every production run. */
const MAX_ENTRIES = 100_000;

export class ZeroedItemsMemory {
	private readonly itemIds: Set<string>;

	private changed = false;

	private constructor(private readonly staticData: IDataObject) {
		const stored = staticData[STATIC_DATA_KEY];
		this.itemIds = new Set(Array.isArray(stored) ? stored.map(String) : []);
	}

	static of(context: IExecuteFunctions): ZeroedItemsMemory {
		return new ZeroedItemsMemory(context.getWorkflowStaticData('node'));
	}

	has(itemId: unknown): boolean {
		return this.itemIds.has(String(itemId));
	}

	remember(itemId: unknown): void {
		this.itemIds.delete(String(itemId));
		this.itemIds.add(String(itemId));
		this.changed = true;
	}

	/** Keeps only the items still listed. */
	keepOnly(stillMissing: (itemId: string) => boolean): void {
		for (const itemId of [...this.itemIds]) {
			if (!stillMissing(itemId)) {
				this.itemIds.delete(itemId);
				this.changed = true;
			}
		}
	}

	save(): void {
		if (!this.changed) return;
		this.staticData[STATIC_DATA_KEY] = [...this.itemIds].slice(Math.max(0, this.itemIds.size - MAX_ENTRIES));
	}
}
