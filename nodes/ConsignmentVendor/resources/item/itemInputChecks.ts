/**
 * Checks of item inputs that go beyond one item's own fields: the consignment they are created in, and
 * SKUs repeated across the input items of one execution.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { parseConsignmentId } from '../../shared/schemas';
import type { ItemFailure } from './itemFailures';
import type { PendingCreation } from './itemCreation';

/** The consignment ID of an input item (resource locator: list or ID), as a string. @throws InputValidationError */
export function readConsignmentId(context: IExecuteFunctions, itemIndex: number): string {
	return parseConsignmentId(context.getNodeParameter('consignmentId', itemIndex, '', { extractValue: true }), itemIndex);
}

/**
 * Later items that repeat an earlier item's vendor_sku (ignoring case, as the service's SKU filter does).
 * A SKU identifies one item: sending it twice would create a duplicate or make the service's per-SKU
 * answer ambiguous, so the first occurrence goes out and the repeats fail.
 */
export function rejectDuplicateSkus(
	pending: Array<Pick<PendingCreation, 'itemIndex' | 'payload'> & { consignmentId?: string }>,
): ItemFailure[] {
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
export function withoutFailed<T extends { itemIndex: number }>(pending: T[], failures: ItemFailure[]): T[] {
	const failed = new Set(failures.map((failure) => failure.itemIndex));
	return pending.filter((entry) => !failed.has(entry.itemIndex));
}
