// Return All in real n8n against a service that answers the two refusals the contract shows no form for in forms
// of its own: the node's page size of 100 refused with a 422 in plain text that does not name page_size, and an
// expired cursor answered 404 `{message: "Not Found"}`. The node decides from which request was refused.
import { apiRequests, describeRequests, expectEqual, expectSuccess, outputOf } from './expect';
import { fail, type Check } from './types';
import { workflowCheck } from './workflow-check';

const APPROVED = 250; // 26 seeded + 224
const PAGES_OF_20 = Math.ceil(APPROVED / 20);

export const pagingRefusalChecks: Check[] = [
	workflowCheck({
		name: 'paging refusals: Return All while 100 is refused (422, plain text) and a cursor expires (404 "Not Found"): every item once',
		workflow: 'item-get-all-refusals',
		async setup(admin) {
			await admin.seedManyItems({ count: APPROVED - 26, status: 'approved' });
			await admin.setPaging({
				maxPageSize: 20,
				aboveMaximum: 'reject',
				pageSizeRefusalStatus: 422,
				pageSizeRefusalBody: 'text',
				pageSizeRefusalMessage: 'Unprocessable Entity',
				cursorLifetimeSeconds: 1,
				expiredCursorStatus: 404,
				expiredCursorBody: 'message',
				expiredCursorMessage: 'Not Found',
			});
			// Request 4 (the refused 100, pages 1 and 2, then page 3's cursor) waits 1.1 s: its cursor is older than 1 s.
			await admin.addFault({ kind: 'latency', ms: 1100, method: 'GET', pathPrefix: '/v1/items', skip: 3 });
		},
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'item-get-all-refusals');
			const items = outputOf(outcome, 'Get approved items');
			const expected = state.items.filter((i) => i.validation_status === 'approved').map((i) => i.item_id).sort((a, b) => a - b);
			expectEqual(items.length, APPROVED, 'items returned');
			expectEqual(items.map((i) => Number(i.item_id)), expected, 'item_id of every approved item, once, in listing order');
			const pages = apiRequests(requests);
			const seen = pages.map((r) => `${r.query.page_size}:${r.status}`);
			const want = ['100:422', '20:200', '20:200', '20:404', ...Array.from({ length: PAGES_OF_20 }, () => '20:200')];
			if (seen.join(' ') !== want.join(' ')) fail(`page requests (page_size:status) were ${seen.join(' ')}, expected ${want.join(' ')}: ${describeRequests(pages.slice(0, 6))}`);
			if (pages[4].query.after) fail(`the listing did not restart from its first page after the refused cursor: ${describeRequests([pages[4]])}`);
			return `${items.length} items; 100 refused (422 text), then 20 per page; a cursor refused (404 "Not Found"), restarted: ${pages.length} requests`;
		},
	}),
];
