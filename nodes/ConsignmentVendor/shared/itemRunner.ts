/**
 * The one runner of the per-item operations (as Google Sheets v2's router): pairing, Max Concurrent Requests,
 * n8n's Batching option, cancellation, Continue On Fail's one error item shape, an input refusal's wording.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { toNodeApiError, type ApiErrorSubject } from '../../shared/errors';
import { isJsonObject } from '../../shared/jsonObject';
import { apiRequest, REQUEST_OPTIONS_PARAMETER, requestSettingsOf, type ApiRequest } from '../../shared/transport';
import { forEachConcurrently } from './concurrency';
import { itemPrefix } from './fieldRules';
import { InputValidationError } from './schemas';
import { RowFates } from './writeOutcomes';

/** What an input error says happened: the user may fix the row and rerun without sending anything twice. */
export const NOTHING_SENT = 'Nothing was sent for this item.';

export function inputError(node: INode, itemIndex: number, message: string, advice?: string): NodeOperationError {
	return new NodeOperationError(node, `${itemPrefix(itemIndex)}: ${message}`, {
		itemIndex,
		description: advice ? `${NOTHING_SENT} ${advice}` : NOTHING_SENT,
	});
}

const FIX_ADVICE = 'Correct the field named above and run the node again.';

/** A validation error names the item already. */
export function refusedInput(node: INode, itemIndex: number, error: unknown): NodeOperationError {
	if (error instanceof InputValidationError) {
		return new NodeOperationError(node, error.message, { itemIndex, description: `${NOTHING_SENT} ${FIX_ADVICE}` });
	}
	if (error instanceof NodeOperationError) return error;
	return inputError(node, itemIndex, error instanceof Error ? error.message : String(error), FIX_ADVICE);
}

/**
 * Exactly `{ error, message }` (message: what to do): "Continue (using error output)" routes an item to the error
 * output with its input row merged in only when its json holds error plus at most message (n8n 1.x: `{error}` or
 * `{error, message}`; 2.x: error/message/details) or `item.error` is set, and 2.x replaces the json of an item
 * carrying `item.error` with `{ error }`, dropping the row (n8n-core WorkflowExecute.handleNodeErrorOutput).
 */
export function errorItem(itemIndex: number, error: string, message?: string | null): INodeExecutionData {
	return { json: { error, ...(message ? { message } : {}) }, pairedItem: { item: itemIndex } };
}

export function errorItemOf(error: unknown, itemIndex: number): INodeExecutionData {
	const { message, description } = error as { message?: string; description?: string | null };
	return errorItem(itemIndex, message ?? String(error), description);
}

/** The contract answers objects; anything else is kept under `response`. */
export function answerJson(answer: unknown): IDataObject {
	if (isJsonObject(answer)) return answer;
	if (answer === undefined || answer === null || answer === '' || (Array.isArray(answer) && answer.length === 0)) return {};
	return { response: answer as IDataObject[string] };
}

/** No body, `''` or `{}`: the output then says what was done instead. */
export function isEmptyAnswer(answer: unknown): boolean {
	if (answer === undefined || answer === null) return true;
	if (typeof answer === 'string') return answer.trim() === '';
	return isJsonObject(answer) && Object.keys(answer).length === 0;
}

/** `answer[key]` when the service wrapped the record in it (`{consignment: {...}}`), else the answer. */
export function unwrapped(answer: unknown, key: string): unknown {
	return isJsonObject(answer) && isJsonObject(answer[key]) ? answer[key] : answer;
}

/** An empty or odd ID refuses the item, naming the field (`label`). */
export function recordPath(
	context: IExecuteFunctions,
	itemIndex: number,
	record: { parameter: string; label: string; path: (id: unknown) => string },
): { id: unknown; path: string } {
	const id = context.getNodeParameter(record.parameter, itemIndex, undefined, { extractValue: true }) as unknown;
	try {
		return { id, path: record.path(id) };
	} catch (error) {
		throw inputError(context.getNode(), itemIndex, `${record.label} ${(error as Error).message}`);
	}
}

/**
 * A failure is mapped (a 404 names `subject`). `stop` is the runner's: once the node fails, a request still waiting in
 * the queue leaves it instead of being sent after the failure (a rerun would send it again).
 */
export async function requestForItem(
	context: IExecuteFunctions,
	itemIndex: number,
	stop: AbortSignal,
	request: ApiRequest,
	subject?: ApiErrorSubject,
): Promise<unknown> {
	try {
		return (await apiRequest(context, { ...request, signal: stop })).body;
	} catch (error) {
		throw toNodeApiError(context.getNode(), error, { itemIndex, subject, method: request.method });
	}
}

export interface PerItemOperation<T> {
	/** Without any request: what it throws refuses that item, nothing was sent. */
	read(context: IExecuteFunctions, itemIndex: number): T;
	/** `stop` is aborted when the node stops: a request still waiting in the queue may leave it. */
	send(context: IExecuteFunctions, input: T, itemIndex: number, stop: AbortSignal): Promise<IDataObject | INodeExecutionData[]>;
	/**
	 * The operation creates, changes or deletes something. Without Continue On Fail every item is then read before
	 * the first request, so an invalid one stops the node with nothing sent (with it, each is read just before it is
	 * sent: evaluating expressions overlaps the service's pace), and a failure names what became of every item
	 * (writeOutcomes.ts), so none is sent twice.
	 */
	writes?: boolean;
	/** One input item at a time (listings: their pages are sent one after another anyway, and in input order). */
	oneAtATime?: boolean;
	onOutcome?(outcome: 'invalid' | 'failed' | 'sent'): void;
}

/** n8n's Batching option (Request Options): `size` items, then a pause of `intervalMs`; none when not set. */
export function batchingOf(context: IExecuteFunctions): { size: number; intervalMs: number } | undefined {
	const options = context.getNodeParameter(REQUEST_OPTIONS_PARAMETER, 0, {}) as IDataObject;
	const batch = ((options.batching as IDataObject | undefined)?.batch ?? {}) as IDataObject;
	const size = Number(batch.batchSize);
	const intervalMs = Number(batch.batchInterval);
	if (!(intervalMs > 0)) return undefined;
	return { size: size > 0 ? Math.floor(size) : 1, intervalMs };
}

export { indexRanges } from './writeOutcomes';

export function perItem<T>(operation: PerItemOperation<T>) {
	return async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await runPerItem(this, operation);
	};
}

/**
 * Without Continue On Fail the first failure stops the node: nothing more starts and queued requests leave the queue,
 * while writes already on the wire are waited for (the queue's withdrawal), so the error can name every row the
 * service carried out.
 */
export async function runPerItem<T>(context: IExecuteFunctions, operation: PerItemOperation<T>): Promise<INodeExecutionData[][]> {
	const count = context.getInputData().length;
	const node = context.getNode();
	const continueOnFail = context.continueOnFail();
	const checked = operation.writes && !continueOnFail
		? Array.from({ length: count }, (_, itemIndex) => operation.read(context, itemIndex))
		: undefined;
	const outputs = new Array<INodeExecutionData[]>(count);
	const stop = new AbortController();
	const cancelled = () => stop.signal.aborted || context.getExecutionCancelSignal?.()?.aborted === true;
	let firstFailure: { error: unknown; itemIndex: number } | undefined;
	const fates = operation.writes && !continueOnFail ? new RowFates(count) : undefined;
	const runItem = async (itemIndex: number) => {
		if (cancelled()) return;
		let stage: 'invalid' | 'failed' = 'invalid';
		try {
			const input = checked ? checked[itemIndex] : operation.read(context, itemIndex);
			stage = 'failed';
			const sent = await operation.send(context, input, itemIndex, stop.signal);
			const pairedItem = { item: itemIndex };
			outputs[itemIndex] = Array.isArray(sent) ? sent : [{ json: sent, pairedItem }];
			fates?.carriedOut(itemIndex);
			operation.onOutcome?.('sent');
		} catch (caught) {
			operation.onOutcome?.(stage);
			const error = toNodeApiError(node, caught, { itemIndex });
			if (continueOnFail) outputs[itemIndex] = [errorItemOf(error, itemIndex)];
			else {
				// Every failure counts: one answered after the first may be a row the service carried out after all.
				fates?.failed(itemIndex, error);
				if (!stop.signal.aborted) {
					firstFailure = { error, itemIndex };
					stop.abort();
				}
			}
		}
	};
	const concurrency = operation.oneAtATime ? 1 : requestSettingsOf(context).maxConcurrent;
	const batching = batchingOf(context);
	const batchSize = batching?.size ?? count;
	for (let start = 0; start < count && !cancelled(); start += batchSize) {
		if (start > 0 && batching) await sleep(batching.intervalMs);
		const size = Math.min(batchSize, count - start);
		await forEachConcurrently(size, concurrency, async (offset) => await runItem(start + offset));
	}
	if (firstFailure) throw fates ? fates.describe(firstFailure.error, firstFailure.itemIndex) : firstFailure.error;
	if (context.getExecutionCancelSignal?.()?.aborted) throw new NodeOperationError(node, 'The execution was cancelled');
	// A single input item's output as it is (a listing of 250,000 records is not copied); otherwise one loop, not
	// `push(...records)`: a listing may hold more records than a call's arguments can.
	if (count === 1) return [outputs[0] ?? []];
	const output: INodeExecutionData[] = [];
	for (const items of outputs) for (const item of items ?? []) output.push(item);
	return [output];
}
