/**
 * Item → Create or Update (upsert by vendor_sku), on the batched runner. Its wing, upsert/: the run (upsertRun.ts),
 * what happens to one row (rowDecision.ts), finding rows (itemCatalog.ts: the two listings read once when cheaper than
 * a lookup per row; itemLookup.ts), Only Send What Changed (sentMemory.ts), its parameters (fields.ts) and the mirror
 * (mirror/: the listed items no row has). New items are created through the account's ledger, as Item Create's are.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { runBatched, type Row } from './helpers/batchRunner';
import type { PendingCreation } from './create';
import { enteredVendorSku, readerForItem, readItemUpdateInput } from './helpers/itemPayload';
import { isPreview } from './helpers/itemPreview';
import { upsertFields } from './upsert/fields';
import { MissingItemsRun } from './upsert/mirror/missingItemsRun';
import { UpsertRun } from './upsert/upsertRun';

export { ONLY_CHANGED_BY_DEFAULT_FROM, ONLY_CHANGED_HINT } from './upsert/fields';

export const option: INodePropertyOptions = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update an item in a consignment by vendor SKU',
	description: 'Create a new item in a consignment, matched by its vendor SKU, or update the current one if it already exists (upsert)',
};

export const fields: INodeProperties[] = upsertFields;

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const preview = isPreview(this);
	// The mirror (Report Them / Set Their Quantity to 0): undefined for Leave Them.
	const mirror = MissingItemsRun.of(this);
	if (mirror && MissingItemsRun.isEmptySource(this)) return await mirror.runWithoutRows(this, preview);
	const run = await UpsertRun.open(this, mirror, preview);
	try {
		return await runBatched<Row, PendingCreation>(
			this,
			{
				enteredSku: (context, itemIndex) => enteredVendorSku(readerForItem(context, itemIndex)),
				read: (context, itemIndex) => ({ itemIndex, payload: readItemUpdateInput(readerForItem(context, itemIndex), itemIndex) }),
				settle: async (context, rows) => await run.settle(context, rows),
				batch: run.creations,
				finish: () => run.finish(),
				extraOutputs: async () => await run.mirrorOutputs(),
			},
			preview,
		);
	} finally {
		// Saved even when the node stops on a failed row: what it submitted must hold the next run back.
		run.saveLedger();
	}
}
