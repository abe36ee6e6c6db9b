import type { INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorItem } from '../../../shared/itemRunner';
import { InputValidationError } from '../../../shared/schemas';
import { indexRanges, withoutRunAgainAdvice } from '../../../shared/writeOutcomes';

export interface ItemFailure {
	itemIndex: number;
	vendorSku?: string;
	/** Why, without the item index (e.g. `price must be a whole number of cents, got 19.99`). */
	messages: string[];
	/** What to do about it, when known. */
	description?: string;
	/** The creation request failed mid-way (5xx, broken connection): the item may have been created after all. */
	outcomeUnknown?: boolean;
}

/** At most this many items are named per reason in the thrown error's message; the description has all. */
const ITEMS_NAMED_PER_REASON = 20;

export function validationFailure(error: InputValidationError, vendorSku?: string): ItemFailure {
	return {
		itemIndex: error.itemIndex,
		vendorSku,
		messages: error.issues.map((issue) => `${issue.field} ${issue.message}`),
	};
}

function label(failure: ItemFailure): string {
	return failure.vendorSku
		? `item index ${failure.itemIndex} (vendor_sku ${failure.vendorSku})`
		: `item index ${failure.itemIndex}`;
}

function capitalised(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

export function failureOutput(failure: ItemFailure): INodeExecutionData {
	const reasons = failure.messages.join('; ');
	return errorItem(failure.itemIndex, `${capitalised(label(failure))}: ${reasons}`, failure.description ? `${reasons}. ${failure.description}` : reasons);
}

/**
 * What a run did besides its input items (Create or Update's listed items not in the input), grouped by outcome: the
 * failed-items error replaces every output item, so without it an item set to 0, or one that could not be, would go
 * unseen.
 */
export interface OtherOutcomes {
	/** What they are, e.g. "Listed items not in the input". */
	subject: string;
	/** outcome → the labels (SKUs) of the items that had it, in order. */
	byOutcome: Map<string, string[]>;
	/** What running the node again does with them, when that matters. */
	note?: string;
}

function otherOutcomesSentence({ subject, byOutcome, note }: OtherOutcomes): string {
	const parts = [...byOutcome.entries()].map(([outcome, labels]) => {
		const named = labels.slice(0, ITEMS_NAMED_PER_REASON).join(', ');
		const more = labels.length > ITEMS_NAMED_PER_REASON ? ` and ${labels.length - ITEMS_NAMED_PER_REASON} more` : '';
		return `${labels.length} ${outcome} (${named}${more})`;
	});
	return `${subject}: ${parts.join('; ')}.${note ? ` ${note}` : ''}`;
}

/**
 * Grouped by reason, so a batch-wide failure (500 items refused with one 5xx) reads as one line. `total`: input
 * items; `written`: the input items created or changed, named so that the user sends none of them again (of them,
 * `unconfirmed`: submitted, but not confirmed by the service's answer). Once any write may have been carried out,
 * no advice to run the node again is kept, whoever wrote it: it would send those writes again.
 */
export function failuresError(
	node: INode,
	failures: ItemFailure[],
	total: number,
	written: number[],
	unconfirmed: number[] = [],
	others?: OtherOutcomes,
): NodeOperationError {
	const sorted = [...failures].sort((a, b) => a.itemIndex - b.itemIndex);
	const byReason = new Map<string, ItemFailure[]>();
	for (const failure of sorted) {
		const reason = failure.messages.join('; ');
		const group = byReason.get(reason);
		if (group) group.push(failure);
		else byReason.set(reason, [failure]);
	}
	const lines = [...byReason.entries()].map(([reason, group]) => {
		const named = group.slice(0, ITEMS_NAMED_PER_REASON).map(label).join(', ');
		const more = group.length > ITEMS_NAMED_PER_REASON ? ` and ${group.length - ITEMS_NAMED_PER_REASON} more` : '';
		return `${capitalised(named)}${more}: ${reason}`;
	});
	const fullList = sorted.map((failure) => `${label(failure)}: ${failure.messages.join('; ')}`).join('\n');
	const unknown = sorted.filter((failure) => failure.outcomeUnknown).length;
	const writesLeft = written.length > 0 || unknown > 0;
	const hints = [
		...new Set(
			sorted
				.map((failure) => failure.description ?? '')
				.map((hint) => (writesLeft ? withoutRunAgainAdvice(hint) : hint))
				.filter(Boolean),
		),
	];
	const message = `${failures.length} of ${total} items failed. ${lines.join(' | ')}`;
	const error = new NodeOperationError(node, message, {
		itemIndex: sorted[0]?.itemIndex,
		description: [
			...(unknown > 0
				? [`Outcome unknown for ${unknown} of the failed item(s): their request may have been carried out, so they may have been created. Check them before sending them again (Item → Get Many Non-Approved filtered by their Vendor SKU), or they may be created twice.`]
				: []),
			written.length > 0
				? `The other ${written.length} item(s) were sent to the service (item index ${indexRanges(written)}): running the node again, or "Retry On Fail", sends them again. Send only the failed items again${unknown > 0 ? ', those of unknown outcome once checked' : ''}.`
				: unknown > 0
					? `Apart from those, no ${others ? 'input ' : ''}item was created or changed.`
					: `No ${others ? 'input ' : ''}item was created or changed.`,
			...(others ? [otherOutcomesSentence(others)] : []),
			...(unconfirmed.length > 0
				? [`${unconfirmed.length} of them were submitted, but the service's answer did not confirm them (item index ${indexRanges(unconfirmed)}; their output items say why): check them before sending them again.`]
				: []),
			'Turn on "Continue On Fail" in the node settings to get one output item per input item, failed ones included.',
			...hints,
			`Every failed item:\n${fullList}`,
		].join('\n'),
	});
	// n8n swaps a message that mentions a network code (ECONNREFUSED, …) for its own generic text, which would
	// hide which items failed; the code stays visible in the per-item reasons.
	error.message = message;
	return error;
}
