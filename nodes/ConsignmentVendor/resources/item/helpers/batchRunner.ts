/**
 * The runner of the batched operations (Item Create, Create or Update's creations): up to `batch.size` rows sharing
 * a key (a consignment) per request, each answer mapped back per row. Decided here once, as itemRunner.ts does for
 * the per-item ones: reading and checking (a repeated SKU is refused), Preview Only, Continue On Fail, cancellation,
 * pairing, the run summary and the one error listing every failed item (batchFailures.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { OutcomeTally } from './runSummary';
import { failureOutput, failuresError, validationFailure, type ItemFailure, type OtherOutcomes } from './batchFailures';
import { InputValidationError, type ItemPayload } from '../../../shared/schemas';

export interface Row {
	itemIndex: number;
	payload: ItemPayload;
}

/** `unconfirmed`: the service's answer does not confirm it; `noRequest`: unchanged, or a preview's verdict. */
export type RowResult =
	| { ok: true; json: IDataObject; unconfirmed?: boolean }
	| { ok: false; failure: ItemFailure }
	| { ok: 'noRequest'; json: IDataObject; outcome: string };

export interface Batched<B extends Row> {
	/** Rows of one key only share a request (in order of the key's first appearance). */
	key(row: B): string;
	size: number;
	/** One request of `rows`: a result for every one of them. A request failure is a result, not a throw. */
	send(context: IExecuteFunctions, rows: B[]): Promise<Map<number, RowResult>>;
	preview(row: B): RowResult;
}

/** Each input item read and checked without any request; an InputValidationError refuses it, naming the field. */
type ReadRow<T> = (context: IExecuteFunctions, itemIndex: number) => T;

/** The SKU an input item was entered with, to label its refusal (the row could not be read). */
type EnteredSku = (context: IExecuteFunctions, itemIndex: number) => string | undefined;

interface RowReading<T> {
	read: ReadRow<T>;
	enteredSku: EnteredSku;
}

/** Every row goes in a batch. Under Continue On Fail batches leave while later input items are still read. */
interface DirectOperation<B extends Row> {
	read: ReadRow<B>;
	enteredSku: EnteredSku;
	batch: Batched<B>;
	settle?: undefined;
}

/** Create or Update: what each checked row needs (finding it) comes before the batches, in input order. */
interface SettledOperation<R extends Row, B extends Row> {
	read: ReadRow<R>;
	enteredSku: EnteredSku;
	batch: Batched<B>;
	/** Every row's result, or the row it sends in a batch, in the order of `rows`. */
	settle(context: IExecuteFunctions, rows: R[], preview: boolean): Promise<Array<RowResult | { batch: B }>>;
	/** Called once every row of a real run has its result, before failures stop the node. */
	finish?(): void;
	/**
	 * Output items of no input item, after the rows' (Create or Update's missing items), counted in the summary, and
	 * how the failed-items error tells of them (it replaces every output item).
	 */
	extraOutputs?(): Promise<{ outputs: ExtraOutput[]; inError: OtherOutcomes } | undefined>;
}

/** `outcome`: what the run summary counts it under. */
export interface ExtraOutput {
	json: IDataObject;
	outcome: string;
}

/** Input items read between two turns of the event loop, so a full batch's request leaves while later ones are read. */
const ITEMS_PER_TURN = 10;

export async function runBatched<R extends Row, B extends Row>(
	context: IExecuteFunctions,
	operation: DirectOperation<B> | SettledOperation<R, B>,
	preview: boolean,
): Promise<INodeExecutionData[][]> {
	const outputs = new RowOutputs(context, preview);
	const streams = !operation.settle && context.continueOnFail() && !preview;
	const queue = new BatchQueue(operation.batch, streams, async (rows) => {
		for (const [itemIndex, result] of await operation.batch.send(context, rows)) outputs.record(itemIndex, result);
	});
	const toBatch = (row: B) => (preview ? outputs.record(row.itemIndex, operation.batch.preview(row)) : queue.add(row));
	if (!operation.settle) {
		(await readRows(context, operation, outputs, streams ? toBatch : undefined)).forEach(toBatch);
	} else {
		const rows = await readRows(context, operation, outputs);
		const settled = await operation.settle(context, rows, preview);
		settled.forEach((result, position) => ('batch' in result ? toBatch(result.batch) : outputs.record(rows[position].itemIndex, result)));
	}
	await queue.finish();
	if (!preview && operation.settle) operation.finish?.();
	const extra = operation.settle ? await operation.extraOutputs?.() : undefined;
	// Rows not read when the execution was cancelled have no output item; what was sent said so in its own result.
	if (context.getExecutionCancelSignal?.()?.aborted) throw new NodeOperationError(context.getNode(), 'The execution was cancelled');
	return outputs.result(extra?.outputs, extra?.inError);
}

/** An error other than a refusal (an expression that throws) is thrown, naming the item. */
function rowChecker<T extends Row>(context: IExecuteFunctions, { read, enteredSku }: RowReading<T>) {
	const firstBySku = new Map<string, number>();
	return (itemIndex: number): { valid: T } | { failure: ItemFailure } => {
		let row: T;
		try {
			row = read(context, itemIndex);
		} catch (error) {
			if (!(error instanceof InputValidationError)) throw new NodeOperationError(context.getNode(), error as Error, { itemIndex });
			return { failure: validationFailure(error, enteredSku(context, itemIndex)) };
		}
		// A SKU (ignoring case, as the service's filter does) identifies one item: sent twice it would create a duplicate
		// or make the per-SKU answer ambiguous.
		const sku = row.payload.vendor_sku;
		const first = firstBySku.get(sku.toLowerCase());
		if (first === undefined) {
			firstBySku.set(sku.toLowerCase(), itemIndex);
			return { valid: row };
		}
		return { failure: { itemIndex, vendorSku: sku, messages: [`vendor_sku repeats the vendor_sku of item index ${first}; each item needs its own SKU`] } };
	};
}

/**
 * Without `sendAtOnce` every item is read before the first request, so a refused one stops the node with nothing
 * sent. With it (Continue On Fail), a full batch leaves while later items are read (evaluating expressions takes
 * seconds for thousands), and an error reading an item fails that item only: stopping would hide batches already
 * created and invite a rerun that creates them twice.
 */
async function readRows<T extends Row>(context: IExecuteFunctions, reading: RowReading<T>, outputs: RowOutputs, sendAtOnce?: (row: T) => void): Promise<T[]> {
	const check = rowChecker(context, reading);
	const checkOrFail = (itemIndex: number): ReturnType<typeof check> => {
		try {
			return check(itemIndex);
		} catch (error) {
			return { failure: { itemIndex, messages: [(error as Error).message] } };
		}
	};
	const rows: T[] = [];
	const count = context.getInputData().length;
	const cancelled = () => sendAtOnce !== undefined && context.getExecutionCancelSignal?.()?.aborted === true;
	for (let itemIndex = 0; itemIndex < count && !cancelled(); itemIndex++) {
		// Under Continue On Fail an expression that throws fails its row only: every input item keeps its output item.
		const checked = sendAtOnce || context.continueOnFail() ? checkOrFail(itemIndex) : check(itemIndex);
		if (!('valid' in checked)) outputs.record(itemIndex, { ok: false, failure: checked.failure }, 'invalid');
		else if (sendAtOnce) sendAtOnce(checked.valid);
		else rows.push(checked.valid);
		if (sendAtOnce && itemIndex % ITEMS_PER_TURN === ITEMS_PER_TURN - 1) await sleep(0);
	}
	outputs.stopOnFailure();
	return rows;
}

/** Requests go one after another: there are few, and the order stays readable. */
class BatchQueue<B extends Row> {
	private readonly waiting = new Map<string, B[]>();

	private sending: Promise<void> = Promise.resolve();

	/** `send` turns request failures into results: this is a bug's error. */
	private failure: { error: unknown } | undefined;

	constructor(
		private readonly batch: Batched<B>,
		private readonly sendWhenFull: boolean,
		private readonly send: (rows: B[]) => Promise<void>,
	) {}

	add(row: B): void {
		const key = this.batch.key(row);
		const rows = this.waiting.get(key) ?? [];
		rows.push(row);
		this.waiting.set(key, rows);
		if (this.sendWhenFull && rows.length === this.batch.size) this.enqueue(rows.splice(0));
	}

	async finish(): Promise<void> {
		for (const rows of this.waiting.values()) {
			for (let start = 0; start < rows.length; start += this.batch.size) this.enqueue(rows.slice(start, start + this.batch.size));
		}
		this.waiting.clear();
		await this.sending;
		if (this.failure) throw this.failure.error;
	}

	private enqueue(rows: B[]): void {
		this.sending = this.sending.then(async () => {
			if (this.failure) return;
			try {
				await this.send(rows);
			} catch (error) {
				this.failure = { error };
			}
		});
	}
}

class RowOutputs {
	private readonly items: INodeExecutionData[];

	private readonly failures: ItemFailure[] = [];

	private readonly inputItems: number;

	/** Input items created or changed: a rerun would send them again, so the failed-items error names them. */
	private readonly written: number[] = [];

	/** Of `written`: submitted, but not confirmed by the service. */
	private readonly unconfirmed: number[] = [];

	private readonly tally = new OutcomeTally();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly preview: boolean,
	) {
		this.inputItems = context.getInputData().length;
		this.items = new Array<INodeExecutionData>(this.inputItems);
	}

	/** `failedAs`: `invalid` for an input item refused before anything was sent. */
	record(itemIndex: number, result: RowResult, failedAs: 'failed' | 'invalid' = 'failed'): void {
		if (this.preview && result.ok !== 'noRequest') result = previewed(result, failedAs);
		if (result.ok === 'noRequest') {
			this.items[itemIndex] = { json: result.json, pairedItem: { item: itemIndex } };
			this.tally.add(result.outcome);
		} else if (result.ok) {
			// A row "not applied" made no request: a rerun sends it nothing either.
			if (outcomeOf(result.json) !== 'not applied') this.written.push(itemIndex);
			if (result.unconfirmed) this.unconfirmed.push(itemIndex);
			this.items[itemIndex] = { json: result.json, pairedItem: { item: itemIndex } };
			this.tally.add(result.unconfirmed ? 'unconfirmed' : outcomeOf(result.json));
		} else {
			this.failures.push(result.failure);
			this.items[itemIndex] = failureOutput(result.failure);
			this.tally.add(result.failure.outcomeUnknown ? 'outcome unknown' : failedAs);
		}
	}

	/** `others`: what the run did besides its input items, which the error has to tell of. */
	stopOnFailure(others?: OtherOutcomes): void {
		if (this.failures.length && !this.context.continueOnFail()) {
			throw failuresError(this.context.getNode(), this.failures, this.inputItems, this.written, this.unconfirmed, others);
		}
	}

	result(extra: ExtraOutput[] = [], inError?: OtherOutcomes): INodeExecutionData[][] {
		for (const { json, outcome } of extra) {
			this.items.push({ json });
			this.tally.add(outcome);
		}
		this.stopOnFailure(extra.length > 0 ? inError : undefined);
		this.tally.show(this.context, this.preview);
		return [this.items];
	}
}

/** Under Preview Only a failure becomes an output item with the real run's reasons: the whole sheet previews at once. */
function previewed(result: Exclude<RowResult, { ok: 'noRequest' }>, failedAs: 'failed' | 'invalid'): RowResult {
	if (result.ok) return { ok: 'noRequest', json: result.json, outcome: String(result.json.operation) };
	const { json } = failureOutput(result.failure);
	return { ok: 'noRequest', json: { preview: failedAs, vendor_sku: result.failure.vendorSku ?? null, ...json }, outcome: failedAs };
}

function outcomeOf(json: IDataObject): string {
	if (json.status === 'submitted') return 'submitted';
	return typeof json.operation === 'string' ? json.operation : 'updated';
}
