/**
 * Item → Create or Update (upsert by vendor_sku), on the batched runner. This file wires the wing together and passes
 * each piece down; nothing below imports an operation. Its wing, upsert/: the run (upsertRun.ts), what happens to one
 * row (rowDecision.ts), finding rows (itemCatalog.ts: the two listings read once when cheaper than a lookup per row;
 * itemLookup.ts), Only Send What Changed (sentMemory.ts), its parameters (fields.ts) and the mirror (mirror/: the
 * listed items no row has). New items are sent as Item Create's are (helpers/itemCreations.ts), through the account's
 * ledger (helpers/submissionLedger.ts).
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { serviceKeyOf } from '../../shared/listOperation';
import { InputValidationError } from '../../shared/schemas';
import { runBatched, type Row } from './helpers/batchRunner';
import { creations, readConsignmentId, type PendingCreation } from './helpers/itemCreations';
import { itemInputFields } from './helpers/itemFields';
import { fieldMappingProperties } from './helpers/itemMapping';
import { enteredVendorSku, readerForItem, readItemUpdateInput } from './helpers/itemPayload';
import { isPreview } from './helpers/itemPreview';
import { readSendAgain } from './helpers/ledgerFields';
import { fingerprintOf } from './helpers/rowFingerprint';
import { SubmissionLedger } from './helpers/submissionLedger';
import { listingWindowMs, upsertOwnFields } from './upsert/fields';
import { readItemCatalog, shownSkus } from './upsert/itemCatalog';
import { findItemBySku } from './upsert/itemLookup';
import { MissingItemsRun } from './upsert/mirror/missingItemsRun';
import { rowDecider } from './upsert/rowDecision';
import { UpsertRun } from './upsert/upsertRun';

export { ONLY_CHANGED_BY_DEFAULT_FROM, ONLY_CHANGED_HINT } from './upsert/fields';

export const option: INodePropertyOptions = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update an item in a consignment by vendor SKU',
	description: 'Create a new item in a consignment, matched by its vendor SKU, or update the current one if it already exists (upsert)',
};

const displayOptions = { show: { resource: ['item'], operation: ['upsert'] } };

export const fields: INodeProperties[] = updateDisplayOptions(displayOptions, [
	...upsertOwnFields,
	...fieldMappingProperties('upsert'),
	...itemInputFields(),
]);

const enteredSku = (context: IExecuteFunctions, itemIndex: number) => enteredVendorSku(readerForItem(context, itemIndex));

/** The consignment a new item of this row would go to, for its fingerprint; undefined when it cannot be read. */
function consignmentOf(context: IExecuteFunctions, itemIndex: number): string | undefined {
	try {
		return readConsignmentId(context, itemIndex);
	} catch (error) {
		if (error instanceof InputValidationError) return undefined; // reported if the row is created
		throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	}
}

/** The run with its parts: the account's ledger (a preview reads it, what would wait, and changes nothing in it). */
async function openRun(context: IExecuteFunctions, mirror: MissingItemsRun | undefined, preview: boolean): Promise<UpsertRun> {
	const windowMs = listingWindowMs(context);
	const ledger = SubmissionLedger.open(context, await serviceKeyOf(context), {
		sendAgain: preview ? [] : readSendAgain(context.getNodeParameter('sendAgain', 0, '')),
		legacyWindowMs: windowMs,
	});
	return new UpsertRun(
		context,
		{
			ledger,
			windowMs,
			mirror,
			creations,
			readCatalog: readItemCatalog,
			shownSkus,
			decideRow: rowDecider({ find: findItemBySku, consignmentIdOf: readConsignmentId }),
			fingerprint: (rowContext, { itemIndex, payload }) => fingerprintOf(payload, consignmentOf(rowContext, itemIndex)),
		},
		preview,
	);
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const preview = isPreview(this);
	// The mirror (Report Them / Set Their Quantity to 0): undefined for Leave Them.
	const mirror = MissingItemsRun.of(this, { readCatalog: readItemCatalog, enteredSku });
	if (mirror?.isEmptySource(this)) return await mirror.runWithoutRows(this, preview);
	const run = await openRun(this, mirror, preview);
	try {
		return await runBatched<Row, PendingCreation>(
			this,
			{
				enteredSku,
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
		run.end();
	}
}
