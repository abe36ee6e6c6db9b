/**
 * The output of a batched item operation (Create, Upsert): exactly one item per input item, in input order and
 * paired with it. The failures are kept for the error thrown without Continue On Fail (itemFailures.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { failureOutput, failuresError, type ItemFailure } from './itemFailures';
import { OutcomeTally } from './runSummary';

/** `unconfirmed`: sent, but the service's answer does not confirm it (a 207 that names no item for it, see itemCreation.ts). */
export type ItemResult = { ok: true; json: IDataObject; unconfirmed?: boolean } | { ok: false; failure: ItemFailure };

export class ItemOutputs {
	private readonly items: INodeExecutionData[];

	private readonly failures: ItemFailure[] = [];

	/** Input items created or changed: a rerun would send them again. */
	private written = 0;

	/** Of `written`: submitted, but not confirmed by the service. */
	private unconfirmed = 0;

	/** Every item's outcome, for the run summary (runSummary.ts). */
	readonly tally = new OutcomeTally();

	constructor(private readonly context: IExecuteFunctions) {
		this.items = new Array<INodeExecutionData>(context.getInputData().length);
	}

	record(itemIndex: number, result: ItemResult, failedAs = 'failed'): void {
		if (result.ok) {
			this.written++;
			if (result.unconfirmed) this.unconfirmed++;
			this.items[itemIndex] = { json: result.json, pairedItem: { item: itemIndex } };
			this.tally.add(result.unconfirmed ? 'unconfirmed' : outcomeOf(result.json));
		} else {
			this.failures.push(result.failure);
			this.items[itemIndex] = failureOutput(result.failure);
			this.tally.add(result.failure.outcomeUnknown ? 'outcome unknown' : failedAs);
		}
	}

	/**
	 * A row that needed no request: unchanged (Only Send What Changed), or a preview's verdict (itemPreview.ts).
	 * Not counted as written.
	 */
	recordUnchanged(itemIndex: number, json: IDataObject, outcome = 'unchanged'): void {
		this.items[itemIndex] = { json, pairedItem: { item: itemIndex } };
		this.tally.add(outcome);
	}

	/** Input items refused before anything was sent. */
	recordFailures(failures: ItemFailure[]): void {
		for (const failure of failures) this.record(failure.itemIndex, { ok: false, failure }, 'invalid');
	}

	/** Without Continue On Fail, a failure so far stops the node with every failed item listed. */
	stopOnFailure(): void {
		if (this.failures.length && !this.context.continueOnFail()) {
			throw failuresError(this.context.getNode(), this.failures, this.items.length, this.written, this.unconfirmed);
		}
	}

	/** The output; `preview` marks the run summary shown in the editor. */
	result(preview = false): INodeExecutionData[][] {
		this.stopOnFailure();
		this.tally.show(this.context, preview);
		return [this.items];
	}
}

/** A successful item's outcome for the summary: `submitted` (a creation), else its operation (updated, not applied…). */
function outcomeOf(json: IDataObject): string {
	if (json.status === 'submitted') return 'submitted';
	return typeof json.operation === 'string' ? json.operation : 'updated';
}
