/**
 * What became of every row of a writing per-item operation that a failure stopped (itemRunner.ts), and the one error
 * that says so. Rows on the wire when the failure came were waited for (the queue's withdrawal, transport/scheduler.ts),
 * so each row is one of: carried out, outcome unknown (sent, no answer says whether it was carried out), failed (the
 * service refused it, or it failed before it was sent) or not sent (the node stopped first). Running the whole node
 * again repeats every write that went through (a second address, a second cancellation), so that advice is given
 * only when no write may have been carried out.
 */
import { retryOutcomeOf } from '../../shared/transport';

export type RowFate = 'carriedOut' | 'partlyCarriedOut' | 'outcomeUnknown' | 'failed' | 'notSent';

const PARTLY = Symbol('consignmentVendorPartlyCarriedOut');

/**
 * Marks the failure of a row that makes several requests (Item Update: the address, then the quantity) when an
 * earlier one of them was carried out: the row is then a write that left, whatever became of the later one.
 */
export function markPartlyCarriedOut<T extends object>(error: T): T {
	if (Object.isExtensible(error)) Object.defineProperty(error, PARTLY, { value: true, enumerable: false, configurable: true });
	return error;
}

/** What a row's failure says of it: judged from what the queue did with its request, never from the wording. */
export function fateOfFailure(error: unknown): Exclude<RowFate, 'carriedOut'> {
	if (typeof error === 'object' && error !== null && (error as { [PARTLY]?: boolean })[PARTLY] === true) return 'partlyCarriedOut';
	const outcome = retryOutcomeOf(error);
	if (outcome?.outcomeUnknown === true) return 'outcomeUnknown';
	// Taken out of the queue before it was sent, because another row had failed.
	if (outcome?.reason === 'withdrawn' && outcome.attempts === 0) return 'notSent';
	return 'failed';
}

/** "0-59, 61" for [0..59, 61]: the input items a user must leave out when sending the rest. */
export function indexRanges(indexes: number[]): string {
	const sorted = [...indexes].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		ranges.push(start === end ? String(sorted[start]) : `${sorted[start]}-${sorted[end]}`);
		start = end + 1;
	}
	return ranges.join(', ');
}

const RUN_AGAIN_ADVICE = /[^.]*\b(run|try)\b[^.]*\bagain\b[^.]*\./gi;

/** `text` without its sentences that advise running (or trying) again, whoever wrote them. */
export function withoutRunAgainAdvice(text: string): string {
	return text.replace(RUN_AGAIN_ADVICE, '').replace(/\s{2,}/g, ' ').trim();
}

const items = (count: number) => `${count} item${count === 1 ? '' : 's'}`;

export class RowFates {
	private readonly fates: Array<RowFate | undefined>;

	constructor(private readonly count: number) {
		this.fates = new Array<RowFate | undefined>(count);
	}

	carriedOut(itemIndex: number): void {
		this.fates[itemIndex] = 'carriedOut';
	}

	failed(itemIndex: number, error: unknown): void {
		this.fates[itemIndex] = fateOfFailure(error);
	}

	/** A row with no fate was never started. */
	private rowsThat(fate: RowFate): number[] {
		const rows: number[] = [];
		for (let itemIndex = 0; itemIndex < this.count; itemIndex++) if ((this.fates[itemIndex] ?? 'notSent') === fate) rows.push(itemIndex);
		return rows;
	}

	/**
	 * `error` (the first failure) with a description that names every row by what became of it. Unchanged when it is
	 * the only row that failed and nothing was carried out: its own advice holds then.
	 */
	describe(error: unknown, itemIndex: number): unknown {
		if (!(error instanceof Error)) return error;
		const carriedOut = this.rowsThat('carriedOut');
		const partly = this.rowsThat('partlyCarriedOut');
		const unknown = this.rowsThat('outcomeUnknown');
		const failed = this.rowsThat('failed');
		const notSent = this.rowsThat('notSent');
		const writesLeft = carriedOut.length + partly.length + unknown.length > 0;
		if (!writesLeft && failed.length <= 1) return error;
		const described = error as Error & { description?: string | null };
		const own = described.description ?? '';
		const parts = [writesLeft ? withoutRunAgainAdvice(own) : own];
		if (carriedOut.length > 0) {
			parts.push(
				`${carriedOut.length} of the ${this.count} items were carried out (item index ${indexRanges(carriedOut)}): do not send them again, or they are carried out twice.`,
			);
		}
		if (partly.length > 0) {
			parts.push(`Partly carried out: item index ${indexRanges(partly)} (an earlier request of the item went through, a later one did not).`);
		}
		if (unknown.length > 0) {
			parts.push(
				`Outcome unknown: ${items(unknown.length)} (item index ${indexRanges(unknown)}): sent, but no answer says whether the service carried ${unknown.length === 1 ? 'it' : 'them'} out; check before sending ${unknown.length === 1 ? 'it' : 'them'} again.`,
			);
		}
		const others = failed.filter((row) => row !== itemIndex);
		const failedRows = failed.includes(itemIndex) ? `item index ${indexRanges(failed)} (${others.length ? 'this one and others' : 'this one'})` : `item index ${indexRanges(failed)}`;
		if (failed.length > 0) parts.push(`Failed, not carried out: ${failedRows}.`);
		if (writesLeft) {
			if (notSent.length > 0) parts.push(`Not sent: ${items(notSent.length)} (item index ${indexRanges(notSent)}).`);
			const checked = unknown.length > 0 ? ', and those of unknown outcome once checked' : '';
			parts.push(
				`Send again only the items failed or not sent${checked}: turn on Settings → On Error → Continue to get one output item per input item, failed ones included.`,
			);
		}
		described.description = parts.filter(Boolean).join(' ');
		return error;
	}
}
