/**
 * The run summary of Create, Update and Create or Update: how many input items ended in each outcome, shown where
 * n8n shows a node's notices after a run (execution hints, `addExecutionHints`: n8n 1.x and 2.x alike). A node that
 * stops with an error shows no hints; its error message gives the counts instead (shared/batchFailures.ts).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/** Outcomes in the order the summary names them; any other comes after, in the order first met. */
const ORDER = [
	'would create',
	'would update',
	'submitted',
	'unconfirmed',
	'outcome unknown',
	'created',
	'updated',
	'unchanged',
	'not applied',
	'failed',
	'invalid',
	// Create or Update's listed items no input row has (resources/item/helpers/missingItemsWrite.ts).
	'would set to 0',
	'would set to 0, but the guard stops the run',
	'set to 0',
	'not in input',
	'not set to 0',
];

/** Outcomes whose word alone does not say what happened; the summary explains them where they appear. */
const MEANING: Record<string, string> = {
	unconfirmed: ' (sent, but not confirmed by the service)',
};

export class OutcomeTally {
	private readonly counts = new Map<string, number>();

	add(outcome: string): void {
		this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
	}

	/** E.g. `1,203 items: 1,198 submitted · 0 unconfirmed (sent, but …) · 5 failed` (other outcomes with no item left out). */
	text(): string {
		const counts = new Map(this.counts);
		// Where items were submitted, "0 unconfirmed" is news too: the service's answer confirmed every one.
		if (counts.has('submitted') && !counts.has('unconfirmed')) counts.set('unconfirmed', 0);
		const known = ORDER.filter((outcome) => counts.has(outcome));
		const others = [...counts.keys()].filter((outcome) => !ORDER.includes(outcome));
		const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
		const parts = [...known, ...others].map((outcome) => `${number(counts.get(outcome)!)} ${outcome}${MEANING[outcome] ?? ''}`);
		return `${number(total)} item${total === 1 ? '' : 's'}: ${parts.join(' · ')}`;
	}

	/** Adds the summary to the node's run: `Preview (nothing was sent): …` for a preview. */
	show(context: IExecuteFunctions, preview: boolean): void {
		if (!this.counts.size) return;
		const message = preview ? `Preview (nothing was sent): ${this.text()}` : this.text();
		// Older hosts (and test doubles) without hints still run the node.
		context.addExecutionHints?.({ message, type: 'info', location: 'outputPane' });
	}
}

const number = (value: number) => value.toLocaleString('en-US');
