/**
 * Item creations (Item Create, and Create or Update's new items) through the account's ledger (submissionLedger.ts):
 * each row claims its SKU just before its batch leaves, a row an earlier submission still holds is not sent (its
 * output says "awaiting the service"), and every answer is written back. The one place both operations create through
 * (their parameters for it: ledgerFields.ts).
 */
import type { Batched, RowResult } from './batchRunner';
import type { PendingCreation } from './itemCreations';
import type { Submission, SubmissionLedger } from './submissionLedger';

/** What the ledger learns from a row's result: only a certain refusal frees the SKU at once. */
function outcomeOf(result: RowResult): 'submitted' | 'unknown' | 'refused' {
	if (result.ok === true) return result.unconfirmed ? 'unknown' : 'submitted';
	if (result.ok === false) return result.failure.outcomeUnknown ? 'unknown' : 'refused';
	return 'refused';
}

export function ledgeredCreations(
	creations: Batched<PendingCreation>,
	ledger: SubmissionLedger,
	windowMs: number,
	fingerprintOf: (row: PendingCreation) => string | undefined,
): Batched<PendingCreation> {
	return {
		...creations,
		send: async (context, rows) => {
			const results = new Map<number, RowResult>();
			const leaving: PendingCreation[] = [];
			// Claimed in one synchronous pass, so nothing else can claim a SKU between the check and the request.
			for (const row of rows) {
				const held = ledger.claim(row.payload.vendor_sku, fingerprintOf(row));
				if (held) results.set(row.itemIndex, awaitingOutcome(row.payload.vendor_sku, held, false));
				else leaving.push(row);
			}
			if (leaving.length === 0) return results;
			let answers: Map<number, RowResult> | undefined;
			try {
				answers = await creations.send(context, leaving);
			} finally {
				// `send` turns request failures into results: a throw is a bug's, and the claims' outcome is unknown.
				if (answers === undefined) for (const row of leaving) ledger.answered(row.payload.vendor_sku, 'unknown', windowMs);
			}
			for (const row of leaving) {
				const result = answers.get(row.itemIndex)!;
				ledger.answered(row.payload.vendor_sku, outcomeOf(result), windowMs);
				results.set(row.itemIndex, result);
			}
			return results;
		},
	};
}

/** The output of a row an earlier submission holds back: when it was submitted, and until when it waits. */
export function awaitingOutcome(vendorSku: string, submission: Submission, preview: boolean): RowResult {
	const submittedAt = new Date(submission.at).toISOString();
	const why =
		submission.kind === 'sending'
			? `Being submitted right now by another run (or another node or workflow on this account): not sent again`
			: `Submitted at ${submittedAt}${submission.kind === 'unknown' ? ' (the answer was lost, so it may have been created)' : ''} and not listed by the service yet: not sent again until the listings show it or until ${new Date(submission.until).toISOString()} (New Items Listed Within when it was sent)`;
	return {
		ok: 'noRequest',
		outcome: 'awaiting the service',
		json: {
			operation: 'awaiting the service',
			status: submission.kind === 'submitted' ? 'submitted' : submission.kind === 'sending' ? 'sending' : 'outcome unknown',
			vendor_sku: vendorSku,
			submitted_at: submittedAt,
			message: `${why}. To send it anyway (the service refused it after accepting it, invalid_item_upload), put its Vendor SKU in Send Again for one run.`,
			...(preview ? { preview: 'awaiting the service' } : {}),
		},
	};
}
