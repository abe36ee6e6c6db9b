/**
 * The output of a batched item operation (Create, Upsert): exactly one item per input item, in input order and
 * paired with it. The failures are kept for the error thrown without Continue On Fail (itemFailures.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { failureOutput, failuresError, type ItemFailure } from './itemFailures';

/** `unconfirmed`: sent, but the service's answer does not confirm it (a 207 that names no item for it, see itemCreation.ts). */
export type ItemResult = { ok: true; json: IDataObject; unconfirmed?: boolean } | { ok: false; failure: ItemFailure };

export class ItemOutputs {
	private readonly items: INodeExecutionData[];

	private readonly failures: ItemFailure[] = [];

	/** Input items created or changed: a rerun would send them again. */
	private written = 0;

	/** Of `written`: submitted, but not confirmed by the service. */
	private unconfirmed = 0;

	constructor(private readonly context: IExecuteFunctions) {
		this.items = new Array<INodeExecutionData>(context.getInputData().length);
	}

	record(itemIndex: number, result: ItemResult): void {
		if (result.ok) {
			this.written++;
			if (result.unconfirmed) this.unconfirmed++;
			this.items[itemIndex] = { json: result.json, pairedItem: { item: itemIndex } };
		} else {
			this.failures.push(result.failure);
			this.items[itemIndex] = failureOutput(result.failure);
		}
	}

	/** A row that needed no request (Only Send What Changed): not counted as written. */
	recordUnchanged(itemIndex: number, json: IDataObject): void {
		this.items[itemIndex] = { json, pairedItem: { item: itemIndex } };
	}

	recordFailures(failures: ItemFailure[]): void {
		for (const failure of failures) this.record(failure.itemIndex, { ok: false, failure });
	}

	/** Without Continue On Fail, a failure so far stops the node with every failed item listed. */
	stopOnFailure(): void {
		if (this.failures.length && !this.context.continueOnFail()) {
			throw failuresError(this.context.getNode(), this.failures, this.items.length, this.written, this.unconfirmed);
		}
	}

	result(): INodeExecutionData[][] {
		this.stopOnFailure();
		return [this.items];
	}
}
