import { openNode, openWorkflow } from '../browser';
import { expectNoText, expectText, type UiCheck } from './types';

const EXAMPLE = 'example-products-sheet-to-consignment-items';
/** The example's five rows: three valid, one the service refuses, one with a price the node refuses itself. */
const SUMMARY = '5 items: 3 submitted · 0 unconfirmed (sent, but not confirmed by the service) · 1 failed · 1 invalid';

/**
 * n8n 2.x's own guard: any regular expression n8n evaluates while running (expressions, parameters) gets 250 ms. On a
 * starved machine (two full test runs and other work on 2 cores) it fires before our node runs; run once more then.
 */
const N8N_REGEX_GUARD = 'Regular expression execution timed out';

export const exampleRunCheck: UiCheck = {
	name: "the first workflow's example, run from the editor: the Create node's run summary explains \"unconfirmed\"; its Preview Only hint is Create's own",
	async run({ page, browser, editorUrl, workflowIds }) {
		await openWorkflow(page, editorUrl, workflowIds[EXAMPLE]);
		const hints = page.locator('[data-test-id="output-panel"] [data-test-id="run-data-hints"]', { hasText: 'items:' });
		for (let attempt = 1; ; attempt++) {
			await page.locator('[data-test-id="execute-workflow-button"]').first().click();
			await openNode(page, 'Create items');
			// Opened while the run may still be going: the output pane fills in when it ends.
			const outcome = await Promise.race([
				hints.waitFor({ timeout: 90_000 }).then(() => 'summary' as const),
				page.getByText(N8N_REGEX_GUARD).first().waitFor({ timeout: 90_000 }).then(() => 'starved' as const),
			]);
			if (outcome === 'summary') break;
			if (attempt === 2) throw new Error(`n8n stopped the run twice: "${N8N_REGEX_GUARD}" (the machine is too busy)`);
			await browser.shot('05-example-run-n8n-regex-guard');
			await page.locator('[data-test-id="ndv-close-button"]').click();
		}
		await browser.shot('05-example-run-summary');
		expectText('the run summary in the output pane', await hints.innerText(), SUMMARY);
		const parameters = await page.locator('[data-test-id="node-parameters"]').innerText();
		expectText('the Preview Only hint of Create', parameters, "Nothing is sent: each row's output says what a real run would do with it");
		expectNoText('the Preview Only hint of Create', parameters, /Create or Update finds/);
		return `summary "${SUMMARY}"`;
	},
};
