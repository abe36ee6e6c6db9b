import type { RequestLogEntry } from '../../sandbox/types';
import { apiRequests, expectEqual, expectSuccess, outputOf } from './expect';
import { fail, type Check } from './types';
import { workflowCheck } from './workflow-check';

const BROKE = 'Outcome unknown — the connection broke after the request was sent, so it may have been carried out: check before sending it again';
const TIMED_OUT = 'Outcome unknown — no answer came before the timeout, so it may have been carried out: check before sending it again';
const NOTHING_CREATED = /no item was created|nothing was (sent|created)/i;

const posts = (requests: RequestLogEntry[]) => apiRequests(requests).filter((r) => r.method === 'POST');

/**
 * A POST whose outcome the node cannot know, in real n8n: n8n 1.x's NodeApiError keeps only `httpCode:
 * 'ECONNRESET'`/`'ECONNABORTED'` of the request error, 2.x keeps the error; both must say "outcome unknown",
 * never "No item was created", and send the POST once.
 */
export const ambiguousWriteChecks: Check[] = [
	workflowCheck({
		name: 'ambiguous writes: item Create whose connection drops after the POST arrived fails with "outcome unknown" for every item, sent once',
		workflow: 'item-create-connection-dropped',
		setup: (admin) => admin.addFault({ kind: 'drop', method: 'POST', pathPrefix: '/v1/consignments/' }),
		verify({ outcome, requests }) {
			if (outcome.ok) fail('the workflow succeeded although the creation POST got no answer');
			const message = outcome.error?.message ?? '';
			const description = outcome.error?.description ?? '';
			expectEqual(
				message,
				`3 of 3 items failed. Item index 0 (vendor_sku E2E-DROP-1), item index 1 (vendor_sku E2E-DROP-2), item index 2 (vendor_sku E2E-DROP-3): ${BROKE}`,
				'error message',
			);
			if (!description.startsWith('Outcome unknown for 3 of the failed item(s)')) fail(`description: ${description}`);
			if (/^No item was created or changed/m.test(description)) fail(`description claims nothing was created: ${description}`);
			expectEqual(posts(requests).map((r) => r.status), [0], 'creation POSTs (0 = dropped)');
			return `"${message.slice(0, 90)}…"; 1 POST`;
		},
	}),
	workflowCheck({
		name: 'ambiguous writes: item Create with no answer before the Timeout (Continue On Fail): each item says "outcome unknown"; the service did create them',
		workflow: 'item-create-timed-out',
		setup: (admin) => admin.addFault({ kind: 'latency', ms: 3000, method: 'POST', pathPrefix: '/v1/consignments/' }),
		async verify({ outcome, admin }) {
			expectSuccess(outcome, 'item-create-timed-out');
			const out = outputOf(outcome, 'Create items');
			expectEqual(
				out.map((item) => item.error),
				[0, 1].map((index) => `Item index ${index} (vendor_sku E2E-SLOW-${index + 1}): ${TIMED_OUT}`),
				'error of each output item',
			);
			for (const item of out) {
				if (NOTHING_CREATED.test(`${String(item.error)} ${String(item.message)}`)) fail(`an item claims nothing was created: ${JSON.stringify(item)}`);
				if (!/Item → Get Many Non-Approved/.test(String(item.message))) fail(`no way to check named: ${String(item.message)}`);
			}
			// The sandbox answers (and logs) the POST only after its 3 s delay.
			await new Promise((resolve) => setTimeout(resolve, 3500));
			const created = (await admin.state()).items.filter((i) => i.vendor_sku.startsWith('E2E-SLOW-')).length;
			expectEqual(created, 2, 'items the service created after the node gave up');
			expectEqual(posts(await admin.requests()).length, 1, 'creation POSTs');
			return '2 items "outcome unknown"; the service created both; 1 POST';
		},
	}),
	workflowCheck({
		name: 'ambiguous writes: order Cancel whose connection drops after the POST arrived fails with "outcome unknown", sent once',
		workflow: 'order-cancel-connection-dropped',
		setup: (admin) => admin.addFault({ kind: 'drop', method: 'POST', pathPrefix: '/v1/cancellations' }),
		verify({ outcome, requests }) {
			if (outcome.ok) fail('the workflow succeeded although the cancellation POST got no answer');
			expectEqual(outcome.error?.message, BROKE, 'error message');
			expectEqual(posts(requests).map((r) => r.status), [0], 'cancellation POSTs (0 = dropped)');
			return `"${BROKE.slice(0, 60)}…"; 1 POST`;
		},
	}),
];
