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

/** One input item, checked: its validated payload, or why it fails. */
export type CheckResult<T> = { valid: T } | { failure: ItemFailure };

/**
 * Checks input items one at a time with `read`. An item it refuses (InputValidationError) or whose SKU repeats an
 * earlier valid item's becomes a failure; any other error stops the node, naming the item.
 */
export class InputItemChecker<T extends CheckedItem> {
	private readonly firstBySku = new Map<string, number>();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly read: (parameter: ParameterReader, itemIndex: number) => T,
	) {}

	check(itemIndex: number): CheckResult<T> {
		const parameter = readerForItem(this.context, itemIndex);
		let entry: T;
		try {
			entry = this.read(parameter, itemIndex);
		} catch (error) {
			if (!(error instanceof InputValidationError)) throw new NodeOperationError(this.context.getNode(), error as Error, { itemIndex });
			return { failure: validationFailure(error, enteredVendorSku(parameter)) };
		}
		const repeated = this.repeatedSku(entry);
		return repeated ? { failure: repeated } : { valid: entry };
	}

	/**
	 * A SKU (ignoring case, as the service's SKU filter does) identifies one item: sending it twice would create a
	 * duplicate or make the service's per-SKU answer ambiguous, so the first occurrence goes out and repeats fail.
	 */
	private repeatedSku(entry: T): ItemFailure | undefined {
		const key = entry.payload.vendor_sku.toLowerCase();
		const first = this.firstBySku.get(key);
		if (first === undefined) {
			this.firstBySku.set(key, entry.itemIndex);
			return undefined;
		}
		return {
			itemIndex: entry.itemIndex,
			vendorSku: entry.payload.vendor_sku,
			consignmentId: entry.consignmentId,
			messages: [`vendor_sku repeats the vendor_sku of item index ${first}; each item needs its own SKU`],
		};
	}
}

/** Checks every input item (InputItemChecker). */
export function validateInputItems<T extends CheckedItem>(
	context: IExecuteFunctions,
	read: (parameter: ParameterReader, itemIndex: number) => T,
): { valid: T[]; failures: ItemFailure[] } {
	const checker = new InputItemChecker(context, read);
	const valid: T[] = [];
	const failures: ItemFailure[] = [];
	const count = context.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const result = checker.check(itemIndex);
		if ('valid' in result) valid.push(result.valid);
		else failures.push(result.failure);
	}
	return { valid, failures };
}

/** The consignment ID of an input item (resource locator: list or ID), as a string. @throws InputValidationError */
export function readConsignmentId(context: IExecuteFunctions, itemIndex: number): string {
	return parseConsignmentId(context.getNodeParameter('consignmentId', itemIndex, '', { extractValue: true }), itemIndex);
}
