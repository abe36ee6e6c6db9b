import { apiRequests, describeRequests, expectCount, expectEqual, expectSuccess, isTokenRequest, outputItemsOf, outputOf, writeRequests } from './expect';
import { fail, type Check } from './types';
import { workflowCheck } from './workflow-check';

/** Every output item is one of the service's item records: it has the item_id and vendor_sku the contract lists. */
function expectItemRecords(items: Array<Record<string, unknown>>): void {
	const odd = items.findIndex((i) => i.item_id === undefined || i.item_id === null || typeof i.vendor_sku !== 'string');
	if (odd >= 0) fail(`output item ${odd} is not an item record (no item_id or vendor_sku): ${JSON.stringify(items[odd])}`);
}

const SEED_APPROVED = 26;
const SEED_PENDING = 9;

export const itemChecks: Check[] = [
	workflowCheck({
		name: 'item Get Many: Return All follows every page, one request per page, filter on each',
		workflow: 'item-get-all-return-all',
		withoutSandbox(outcome) {
			expectSuccess(outcome, 'item-get-all-return-all');
			const items = outputOf(outcome, 'Get approved items');
			// Without the request log, only a listing longer than one page (5) shows that pages were followed.
			if (items.length <= 5) {
				fail(`Return All gave ${items.length} approved item(s): the workflow asks for pages of 5, so following pages is shown only by more than 5. The server's vendor needs at least 6 approved items for this check (or the node stopped after the first page).`);
			}
			expectItemRecords(items);
			expectEqual(new Set(items.map((i) => String(i.item_id))).size, items.length, 'distinct item_id values (no page twice)');
			return `${items.length} approved items (more than one page of 5)`;
		},
		verify({ outcome, requests }) {
			expectSuccess(outcome, 'item-get-all-return-all');
			const items = outputOf(outcome, 'Get approved items');
			expectEqual(items.length, SEED_APPROVED, 'items returned');
			const skus = new Set(items.map((i) => i.vendor_sku));
			expectEqual(skus.size, SEED_APPROVED, 'distinct vendor_sku values (no page twice, none skipped)');
			const pages = apiRequests(requests);
			expectEqual(pages.length, Math.ceil(SEED_APPROVED / 5), 'GET /v1/items requests (pages of 5)');
			pages.forEach((r, i) => {
				if (r.path !== '/v1/items' || r.status !== 200) fail(`page ${i + 1}: ${describeRequests([r])}`);
				if (r.query.validation_status !== 'approved') fail(`page ${i + 1} lost the validation_status filter: ${JSON.stringify(r.query)}`);
				if (i === 0 && r.query.after) fail('the first page carried a cursor');
				if (i > 0 && !r.query.after) fail(`page ${i + 1} has no after cursor`);
			});
			return `${items.length} items in ${pages.length} requests`;
		},
	}),
	workflowCheck({
		name: 'item Get Many: Limit 7 stops after the 7th item (page size 5: 2 requests)',
		workflow: 'item-get-all-limit',
		withoutSandbox(outcome) {
			expectSuccess(outcome, 'item-get-all-limit');
			const items = outputOf(outcome, 'Get 7 items');
			if (items.length !== 7) {
				fail(`Limit 7 returned ${items.length} items; expected exactly 7 (the server's vendor needs at least 7 non-approved items for this check: fewer cannot show that the limit crosses a page of 5 and stops there)`);
			}
			expectItemRecords(items);
			expectEqual(new Set(items.map((i) => String(i.item_id))).size, 7, 'distinct item_id values');
			return '7 items';
		},
		verify({ outcome, requests }) {
			expectSuccess(outcome, 'item-get-all-limit');
			const items = outputOf(outcome, 'Get 7 items');
			expectEqual(items.length, 7, 'items returned');
			const pages = apiRequests(requests);
			expectEqual(pages.length, 2, `list requests (${describeRequests(pages)})`);
			if (items.some((i) => i.validation_status === 'approved')) fail('Get Many without a status returned approved items');
			return `7 items, ${describeRequests(pages)}`;
		},
	}),
	workflowCheck({
		name: 'item Get Many: Filters → Vendor SKU per input row, case-insensitive, sent with the status filter on every request',
		workflow: 'item-get-all-vendor-sku',
		verify({ outcome, requests }) {
			expectSuccess(outcome, 'item-get-all-vendor-sku');
			const out = outputItemsOf(outcome, 'Find by vendor SKU');
			expectEqual(
				out.map((item) => [item.json.vendor_sku, item.pairedItem]),
				[['SBX-1004', { item: 0 }], ['SBX-1010', { item: 1 }]],
				'items found (vendor_sku, paired input row) for sbx-1004, Sbx-1010, NO-SUCH-SKU',
			);
			// Page size 1 and Return All: had any request lost the filter, the listing would go on for all 26 approved
			// items, one request each. One request per row shows the service filtered every time.
			const pages = apiRequests(requests);
			expectEqual(
				pages.map((r) => `${r.method} ${r.path} ${r.status} ${new URLSearchParams(Object.entries(r.query).sort()).toString()}`).sort(),
				['NO-SUCH-SKU', 'Sbx-1010', 'sbx-1004'].map((sku) => `GET /v1/items 200 page_size=1&validation_status=approved&vendor_sku=${sku}`).sort(),
				'list requests (vendor_sku as typed, with the status filter)',
			);
			return `${out.length} items; ${describeRequests(pages)}`;
		},
	}),
	workflowCheck({
		name: 'item Get Many Non-Approved: status filter, price object, all pages',
		workflow: 'item-get-non-approved',
		verify({ outcome, requests }) {
			expectSuccess(outcome, 'item-get-non-approved');
			const items = outputOf(outcome, 'Get pending items');
			expectEqual(items.length, SEED_PENDING, 'pending items returned');
			const notPending = items.filter((i) => i.item_status !== 'pending');
			if (notPending.length) fail(`items with another status: ${JSON.stringify(notPending.map((i) => i.item_status))}`);
			const pages = apiRequests(requests);
			expectEqual(pages.length, Math.ceil(SEED_PENDING / 4), 'GET /v1/items/non_approved requests (pages of 4)');
			if (pages.some((r) => r.path !== '/v1/items/non_approved' || r.query.status !== 'pending')) fail(`unexpected requests: ${describeRequests(pages)}`);
			return `${items.length} pending items in ${pages.length} requests`;
		},
	}),
	workflowCheck({
		name: 'item Create: 520 items in 2 requests (500 + 20), 207 partial failure mapped to its items with Continue On Fail',
		workflow: 'item-create-batch',
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'item-create-batch');
			const out = outputOf(outcome, 'Create items');
			expectEqual(out.length, 520, 'output items (one per input item)');
			const posts = apiRequests(requests).filter((r) => r.method === 'POST');
			expectEqual(
				posts.map((r) => `${r.path} ${(r.body as { items?: unknown[] })?.items?.length} -> ${r.status}`),
				['/v1/consignments/cons_12345/items 500 -> 207', '/v1/consignments/cons_12345/items 20 -> 207'],
				'creation requests',
			);
			expectCount(requests, isTokenRequest, 0, 'token exchanges (the stored token is reused)');
			// A failed item is n8n's error shape { error, message } (so "Continue (using error output)" can route it).
			const failedIdx = out.flatMap((item, i) => (item.error !== undefined ? [i] : []));
			expectEqual(failedIdx, [7, 511], 'indexes of the failed output items');
			for (const i of failedIdx) {
				const item = out[i];
				const named = `Item index ${i} (vendor_sku E2E-BATCH-${String(i).padStart(4, '0')}):`;
				if (!String(item.error).startsWith(named)) fail(`failed item ${i} does not start with "${named}": ${String(item.error)}`);
				if (!/designer/i.test(String(item.message))) fail(`failed item ${i}'s message does not give the reason: ${String(item.message)}`);
				if (!/designer/i.test(String(item.error))) fail(`failed item ${i} does not say the designer is wrong: ${String(item.error)}`);
			}
			const submitted = out.filter((item) => item.status === 'submitted').length;
			expectEqual(submitted, 518, 'items reported as submitted');
			const created = state.items.filter((i) => i.vendor_sku.startsWith('E2E-BATCH-'));
			expectEqual(created.length, 518, 'items the sandbox created');
			const skuOf = (item: (typeof out)[number]) => (item.error !== undefined ? /\(vendor_sku ([^)]+)\)/.exec(String(item.error))?.[1] : item.vendor_sku);
			const order = out.every((item, i) => skuOf(item) === `E2E-BATCH-${String(i).padStart(4, '0')}`);
			if (!order) fail('output items are not in input order (pairing broken)');
			return `518 submitted, items 7 and 511 failed: "${String(out[7].error).slice(0, 100)}"`;
		},
	}),
	workflowCheck({
		name: 'item Create: without Continue On Fail an invalid item stops the node before any request, naming field and index',
		workflow: 'item-create-invalid-stops',
		verify({ outcome, requests }) {
			if (outcome.ok) fail('the workflow succeeded although one item has price "nineteen dollars"');
			const message = `${outcome.error?.message ?? ''} ${outcome.error?.description ?? ''}`;
			if (!/price/i.test(message) || !/index 1\b/i.test(message)) fail(`the error does not name price and item index 1: "${message.slice(0, 300)}"`);
			const posts = requests.filter((r) => r.method === 'POST' && !isTokenRequest(r));
			expectEqual(posts.length, 0, 'creation requests sent');
			return `"${(outcome.error?.message ?? '').slice(0, 140)}"`;
		},
	}),
	workflowCheck({
		name: 'item Update: pending item, all fields in one PATCH',
		workflow: 'item-update-pending',
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'item-update-pending');
			const [out] = outputOf(outcome, 'Update item');
			const patches = apiRequests(requests).filter((r) => r.method === 'PATCH');
			expectEqual(patches.map((r) => `${r.path} ${r.status}`), ['/v1/items/50002 200'], 'PATCH requests');
			const item = state.items.find((i) => i.item_id === 50002);
			expectEqual([item?.price, item?.designer], [123400, 'Gucci'], 'stored price and designer');
			return `output ${JSON.stringify(out).slice(0, 120)}`;
		},
	}),
	workflowCheck({
		name: 'item Update: approved item, quantity decrease only',
		workflow: 'item-update-approved',
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'item-update-approved');
			outputOf(outcome, 'Decrease quantity');
			const patches = apiRequests(requests).filter((r) => r.method === 'PATCH');
			expectEqual(patches.map((r) => `${r.path} ${r.status}`), ['/v1/items/50005 200'], 'PATCH requests');
			expectEqual((patches[0].body as Record<string, unknown>)?.quantity, 1, 'quantity sent');
			expectEqual(state.items.find((i) => i.item_id === 50005)?.quantity, 1, 'stored quantity');
			return `PATCH body ${JSON.stringify(patches[0].body)}`;
		},
	}),
	workflowCheck({
		name: 'item Upsert: pending SKU patched, approved SKU not sent a quantity (not applied), new SKU created',
		workflow: 'item-upsert',
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'item-upsert');
			const out = outputOf(outcome, 'Upsert items');
			expectEqual(out.length, 3, 'output items');
			const writes = writeRequests(requests).sort();
			// SBX-1004 is approved: the approved listing shows no quantity, so a quantity could be an increase the service
			// ignores or refuses; with no address to change, its row makes no request and says why.
			expectEqual(writes, ['PATCH /v1/items/50002 200', 'POST /v1/consignments/1001/items 200'], 'write requests');
			const approved = out.find((item) => item.vendor_sku === 'SBX-1004');
			expectEqual(approved?.operation, 'not applied', 'SBX-1004 operation');
			if (typeof approved?.quantityNotSent !== 'string') fail(`SBX-1004 output says nothing of its quantity: ${JSON.stringify(approved)}`);
			const pending = state.items.find((i) => i.vendor_sku === 'SBX-1001');
			expectEqual([pending?.price, pending?.designer], [150000, 'Prada'], 'SBX-1001 after upsert');
			const created = state.items.find((i) => i.vendor_sku === 'E2E-UPSERT-NEW');
			if (!created || created.consignment_id !== '1001') fail(`E2E-UPSERT-NEW not created in consignment 1001: ${JSON.stringify(created)}`);
			return `${describeRequests(apiRequests(requests))}`;
		},
	}),
];
