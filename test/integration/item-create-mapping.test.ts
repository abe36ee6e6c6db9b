// How a 207 answer is mapped back to input items when the service's errors are not one-per-SKU: errors with a
// null vendor_sku, a SKU that was not sent, no usable error list, several errors for one SKU, a SKU in another case.
// An item fails only when an error names it; when the answer leaves some failure untied to an item, the items no
// error names are "submitted, result not confirmed by the service". The sandbox always names the SKU, so these
// answers come from a stub API (tokens still come from the sandbox's real token endpoint).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { CredentialStore, sandboxCredential } from '../harness';
import { CONTINUE_ON_FAIL, ITEM_PARAMETERS_FROM_JSON, validItem } from './item-harness';
import { outputOf, resultOf, runPackageNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();
let stub: http.Server;
let stubUrl: string;
let nextAnswer: { status: number; body: unknown };
const received: Array<{ path: string; body: { items: Array<{ vendor_sku: string }> } }> = [];

beforeAll(async () => {
	stub = http.createServer((req, res) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => {
			received.push({ path: req.url ?? '', body: JSON.parse(text || 'null') });
			res.writeHead(nextAnswer.status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(nextAnswer.body));
		});
	});
	await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
	stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => stub.close(resolve));
});

beforeEach(() => {
	received.length = 0;
});

async function runCreate(answer: { status: number; body: unknown }, skus: string[], settings = CONTINUE_ON_FAIL) {
	nextAnswer = answer;
	const store = new CredentialStore([sandboxCredential(sandbox(), { baseUrl: stubUrl })]);
	const parameters = {
		resource: 'item',
		operation: 'create',
		consignmentId: { __rl: true, mode: 'id', value: 'cons_12345' },
		...ITEM_PARAMETERS_FROM_JSON,
	};
	return await runPackageNode(store, parameters, skus.map((sku) => validItem(sku)), settings);
}

async function createWith(answer: { status: number; body: unknown }, skus: string[]) {
	return outputOf(await runCreate(answer, skus));
}

const UNCONFIRMED = /^Submitted, result not confirmed by the service: /;

it('an error with a null vendor_sku fails no item by itself: the named SKU fails, the others are not confirmed', async () => {
	const output = await createWith(
		{
			status: 207,
			body: {
				error: [
					{ message: 'consignment is closed for new items', vendor_sku: null },
					{ message: 'price is invalid', vendor_sku: 'S-1' },
				],
			},
		},
		['S-0', 'S-1', 'S-2'],
	);
	expect(received).toHaveLength(1);
	expect(output.map((item) => [resultOf(item).status, item.pairedItem])).toEqual([
		['unconfirmed', { item: 0 }],
		['failed', { item: 1 }],
		['unconfirmed', { item: 2 }],
	]);
	expect(output[0].json).toMatchObject({ vendor_sku: 'S-0', consignment_id: 'cons_12345' });
	expect(output[0].json.message).toMatch(UNCONFIRMED);
	expect(output[0].json.message).toContain('errors it did not tie to an item of this request: consignment is closed for new items');
	expect(output[1].json.error).toBe('Item index 1 (vendor_sku S-1): price is invalid');
	// What the service said about no item in particular is not lost on the failed item either.
	expect(output[1].json.message).toMatch(/^price is invalid\. Besides, the service answered HTTP 207 with errors it did not tie to an item of this request: consignment is closed/);
});

it('gives one item all of its errors, matches a SKU the service wrote in another case, leaves the others submitted', async () => {
	const output = await createWith(
		{
			status: 207,
			body: {
				error: [
					{ message: 'designer is invalid', vendor_sku: 'S-2' },
					{ message: 'condition is invalid', vendor_sku: 'S-2' },
					{ message: 'gender is invalid', vendor_sku: 'abc-9' },
				],
			},
		},
		['S-0', 'S-2', 'ABC-9', 'S-3'],
	);
	expect(output.map((item) => resultOf(item).status)).toEqual(['submitted', 'failed', 'failed', 'submitted']);
	expect(output[1].json.error).toBe('Item index 1 (vendor_sku S-2): designer is invalid; condition is invalid');
	expect(output[2].json.error).toBe('Item index 2 (vendor_sku ABC-9): gender is invalid');
	expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
});

it('an error naming a SKU that was not sent fails no item: every item is submitted but not confirmed, and says what the service said', async () => {
	const output = await createWith({ status: 207, body: { error: [{ message: 'item is invalid', vendor_sku: 'NOT-SENT' }] } }, ['S-0', 'S-1']);
	expect(output.map((item) => [resultOf(item).status, item.json.vendor_sku])).toEqual([
		['unconfirmed', 'S-0'],
		['unconfirmed', 'S-1'],
	]);
	for (const item of output) {
		expect(item.json.message).toMatch(UNCONFIRMED);
		expect(item.json.message).toContain('item is invalid (vendor_sku NOT-SENT, not in this request)');
		expect(item.json.message).toMatch(/before sending it again/);
	}
});

it.each([
	['a body without an error list', { message: 'partially processed' }],
	['an empty error list', { error: [] }],
	['an error string instead of a list', { error: 'some items are invalid' }],
	['no body at all', null],
])('a 207 with %s fails no item: every item is submitted but not confirmed', async (_shape, body) => {
	const output = await createWith({ status: 207, body }, ['S-0', 'S-1', 'S-2']);
	expect(output.map((item) => resultOf(item).status)).toEqual(['unconfirmed', 'unconfirmed', 'unconfirmed']);
	expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
	expect(output[0].json.message).toMatch(UNCONFIRMED);
	expect(output[0].json.message).toContain(`without a list of which: ${JSON.stringify(body)}`);
});

it('without Continue On Fail: the node fails for the named SKU only, and says the others were sent but not confirmed', async () => {
	const result = await runCreate(
		{ status: 207, body: { error: [{ message: 'price is invalid', vendor_sku: 'S-1' }, { message: 'rate limited', vendor_sku: null }] } },
		['S-0', 'S-1', 'S-2'],
		{},
	);
	expect(result.error?.message).toBe('1 of 3 items failed. Item index 1 (vendor_sku S-1): price is invalid');
	const description = String((result.error as { description?: string }).description);
	expect(description).toMatch(/^The other 2 item\(s\) were sent to the service \(item index 0, 2\): send only the failed items again\./);
	expect(description).toContain("2 of them were submitted, but the service's answer did not confirm them");
	expect(description).not.toMatch(/No (other )?item was created/);
});

it('without Continue On Fail, a 207 that ties no error to an item does not stop the node: every item is unconfirmed', async () => {
	const result = await runCreate({ status: 207, body: { error: [{ message: 'oops', vendor_sku: null }] } }, ['S-0', 'S-1'], {});
	expect(result.error).toBeUndefined();
	expect(outputOf(result).map((item) => item.json.status)).toEqual(['unconfirmed', 'unconfirmed']);
});

it.each([
	['a number naming the SKU sent as text', ['12345', '777'], 12345, '12345'],
	['a number naming the SKU the input gave as a number', [12345, 777], 12345, '12345'],
])('a 207 error whose vendor_sku is %s fails that item, the others are submitted', async (_what, skus, named, failedSku) => {
	nextAnswer = { status: 207, body: { error: [{ message: 'price is invalid', vendor_sku: named }] } };
	const store = new CredentialStore([sandboxCredential(sandbox(), { baseUrl: stubUrl })]);
	const parameters = {
		resource: 'item',
		operation: 'create',
		consignmentId: { __rl: true, mode: 'id', value: 'cons_12345' },
		...ITEM_PARAMETERS_FROM_JSON,
	};
	const rows = skus.map((sku) => validItem(String(sku), { sku }));
	const output = outputOf(await runPackageNode(store, parameters, rows, CONTINUE_ON_FAIL));

	expect(received[0].body.items.map((item) => item.vendor_sku)).toEqual(['12345', '777']);
	expect(output.map((item) => [resultOf(item).status, item.pairedItem])).toEqual([
		['failed', { item: 0 }],
		['submitted', { item: 1 }],
	]);
	expect(output[0].json.error).toBe(`Item index 0 (vendor_sku ${failedSku}): price is invalid`);
});
