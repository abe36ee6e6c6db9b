/**
 * Checks of the input items of Create and Upsert before anything is sent: each item's own fields, the
 * consignment they are created in, and SKUs repeated across the input items of one execution.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions } from 'n8n-workflow';

import { InputValidationError, parseConsignmentId, type ItemPayload } from '../../../shared/schemas';
import { validationFailure, type ItemFailure } from './itemFailures';
import { enteredVendorSku, readerForItem, type ParameterReader } from './itemPayload';

/** A validated input item. */
export interface CheckedItem {
	itemIndex: number;
	payload: ItemPayload;
	consignmentId?: string;
}

/**
 * Reads every input item with `read`. An item it refuses (InputValidationError) or whose SKU repeats an earlier
 * one's becomes a failure; any other error stops the node, naming the item.
 */
export function validateInputItems<T extends CheckedItem>(
	context: IExecuteFunctions,
	read: (parameter: ParameterReader, itemIndex: number) => T,
): { valid: T[]; failures: ItemFailure[] } {
	const valid: T[] = [];
	const failures: ItemFailure[] = [];
	const count = context.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const parameter = readerForItem(context, itemIndex);
		try {
			valid.push(read(parameter, itemIndex));
		} catch (error) {
			if (!(error instanceof InputValidationError)) throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
			failures.push(validationFailure(error, enteredVendorSku(parameter)));
		}
	}
	const duplicates = rejectDuplicateSkus(valid);
	return { valid: withoutFailed(valid, duplicates), failures: [...failures, ...duplicates] };
}

/** The consignment ID of an input item (resource locator: list or ID), as a string. @throws InputValidationError */
export function readConsignmentId(context: IExecuteFunctions, itemIndex: number): string {
	return parseConsignmentId(context.getNodeParameter('consignmentId', itemIndex, '', { extractValue: true }), itemIndex);
}

/**
 * Later items that repeat an earlier item's vendor_sku (ignoring case, as the service's SKU filter does).
 * A SKU identifies one item: sending it twice would create a duplicate or make the service's per-SKU
 * answer ambiguous, so the first occurrence goes out and the repeats fail.
 */
function rejectDuplicateSkus(pending: CheckedItem[]): ItemFailure[] {
	const firstBySku = new Map<string, number>();
	const failures: ItemFailure[] = [];
	for (const entry of pending) {
		const key = entry.payload.vendor_sku.toLowerCase();
		const first = firstBySku.get(key);
		if (first === undefined) {
			firstBySku.set(key, entry.itemIndex);
			continue;
		}
		failures.push({
			itemIndex: entry.itemIndex,
			vendorSku: entry.payload.vendor_sku,
			consignmentId: entry.consignmentId,
			messages: [`vendor_sku repeats the vendor_sku of item index ${first}; each item needs its own SKU`],
		});
	}
	return failures;
}

/** `pending` without the entries whose input item failed. */
function withoutFailed<T extends { itemIndex: number }>(pending: T[], failures: ItemFailure[]): T[] {
	const failed = new Set(failures.map((failure) => failure.itemIndex));
	return pending.filter((entry) => !failed.has(entry.itemIndex));
}
