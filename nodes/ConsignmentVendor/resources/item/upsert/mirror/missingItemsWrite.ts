/**
 * Setting the missing items to 0 (one PATCH `{quantity: 0}` each, through the shared queue) and the output item of
 * each, after the rows' outputs. The contract says a non-approved item's PATCH needs every creation field, which
 * the listings do not show: the PATCH sends the quantity only, and a service that refuses it (any 4xx: decided by
 * which request failed, not by its wording) gets the item reported as "not set to 0", never left silently.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiPaths } from '../../../../../shared/apiPaths';
import { outcomeIsUnknown, toNodeApiError } from '../../../../../shared/errors';
import { readHttpFailure } from '../../../../../shared/httpFailure';
import { apiRequest, requestSettingsOf } from '../../../../../shared/transport';
import type { OtherOutcomes } from '../../helpers/batchFailures';
import type { ExtraOutput } from '../../helpers/batchRunner';
import { mapConcurrently } from '../../../../shared/concurrency';
import type { MissingItem, MissingItemsPlan } from './missingItems';
import type { ZeroedItemsMemory } from './zeroedItemsMemory';

/** An output item of its own (no input item has it), with the outcome the run summary counts it under. */
export type MissingItemOutput = ExtraOutput;

const PARTIAL_PATCH_REFUSED =
	'The service refused a PATCH that sends the quantity only: for a non-approved item it wants every creation field, which its listings do not show. Set this item\'s quantity with Item → Update (all fields), or remove the item in the vendor portal.';

function output(item: MissingItem, outcome: string, extra: IDataObject = {}): MissingItemOutput {
	return {
		outcome,
		json: {
			operation: outcome,
			missingFromInput: true,
			vendor_sku: item.vendorSku,
			item_id: item.itemId,
			validation_status: item.validationStatus,
			// null: the listing does not show it (approved items).
			quantity_before: item.quantityBefore ?? null,
			...extra,
		},
	};
}

async function setToZero(context: IExecuteFunctions, item: MissingItem): Promise<MissingItemOutput> {
	try {
		const { body } = await apiRequest(context, { method: 'PATCH', url: apiPaths.item(item.itemId), body: { quantity: 0 } });
		const status = (body as IDataObject | undefined)?.status;
		return output(item, 'set to 0', { status: typeof status === 'string' ? status : 'updated', quantity: 0 });
	} catch (error) {
		const mapped = toNodeApiError(context.getNode(), error, { subject: { kind: 'item', id: item.itemId }, method: 'PATCH' });
		if (outcomeIsUnknown(error, 'PATCH')) return output(item, 'outcome unknown', { reason: mapped.message, message: mapped.description ?? null });
		const status = readHttpFailure(error).status;
		const refusedPartial = item.validationStatus !== 'approved' && status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 404 && status !== 429;
		return output(item, 'not set to 0', { reason: mapped.message, ...(refusedPartial ? { message: PARTIAL_PATCH_REFUSED } : { message: mapped.description ?? null }) });
	}
}

/**
 * Preview: what a real run would do with each item. Real run: the PATCHes, as many at once as the queue lets run,
 * outputs in the listing's order; the memory learns the approved items set to 0.
 */
export async function settleMissingItems(
	context: IExecuteFunctions,
	plan: MissingItemsPlan,
	preview: boolean,
	memory: ZeroedItemsMemory,
): Promise<MissingItemOutput[]> {
	if (preview) {
		return plan.missing.map((item) =>
			item.action === 'setToZero'
				? output(item, 'would set to 0', { preview: 'would set to 0' })
				: output(item, 'not in input', { preview: 'not in input', ...(item.reason ? { reason: item.reason } : {}) }),
		);
	}
	memory.keepOnly((itemId) => plan.listedIds.has(itemId));
	const outputs = await mapConcurrently(plan.missing, requestSettingsOf(context).maxConcurrent, async (item) => {
		if (item.action === 'report') return output(item, item.reason ? 'not set to 0' : 'not in input', item.reason ? { reason: item.reason } : {});
		return await setToZero(context, item);
	});
	plan.missing.forEach((item, position) => {
		if (item.validationStatus === 'approved' && outputs[position].outcome === 'set to 0') memory.remember(item.itemId);
	});
	memory.save();
	return outputs;
}

/** What the failed-items error says of the missing items when a row failed without Continue On Fail. */
export function missingItemsInError(outputs: MissingItemOutput[]): OtherOutcomes {
	const byOutcome = new Map<string, string[]>();
	for (const { json, outcome } of outputs) {
		const labels = byOutcome.get(outcome) ?? [];
		labels.push(String(json.vendor_sku));
		byOutcome.set(outcome, labels);
	}
	const onlyReported = [...byOutcome.keys()].every((outcome) => outcome === 'not in input');
	return {
		subject: 'Listed items not in the input',
		byOutcome,
		// The next run leaves an item at 0 (its listing, or the workflow's memory, shows it) and handles the others again.
		note: onlyReported ? undefined : 'Running the node again after fixing the failed rows is safe for them: items at 0 stay at 0, and the others are handled again.',
	};
}
