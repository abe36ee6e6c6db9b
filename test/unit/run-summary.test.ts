// The run summary's text: counts per outcome in a fixed order, thousands separated, "0 unconfirmed" where items
// were submitted, and the preview's prefix; shown as one execution hint.
import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import { OutcomeTally } from '../../nodes/ConsignmentVendor/resources/item/helpers/runSummary';

function tallyOf(counts: Record<string, number>): OutcomeTally {
	const tally = new OutcomeTally();
	for (const [outcome, count] of Object.entries(counts)) for (let n = 0; n < count; n++) tally.add(outcome);
	return tally;
}

describe('OutcomeTally', () => {
	it('names each outcome with its count, in a fixed order, and says 0 unconfirmed when items were submitted', () => {
		expect(tallyOf({ invalid: 2, failed: 5, submitted: 1_198, unchanged: 3 }).text()).toBe(
			'1,208 items: 1,198 submitted · 0 unconfirmed (sent, but not confirmed by the service) · 3 unchanged · 5 failed · 2 invalid',
		);
		expect(tallyOf({ updated: 1 }).text()).toBe('1 item: 1 updated');
	});

	it('shows one hint, prefixed for a preview; none for an empty run', () => {
		const hints: NodeExecutionHint[] = [];
		const context = { addExecutionHints: (...added: NodeExecutionHint[]) => hints.push(...added) } as unknown as IExecuteFunctions;
		new OutcomeTally().show(context, false);
		expect(hints).toEqual([]);
		tallyOf({ 'would create': 2, invalid: 1 }).show(context, true);
		expect(hints).toEqual([{ message: 'Preview (nothing was sent): 3 items: 2 would create · 1 invalid', type: 'info', location: 'outputPane' }]);
	});
});
