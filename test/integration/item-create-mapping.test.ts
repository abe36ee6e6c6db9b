// How a 207 answer is mapped back to input items when the service's errors are not one-per-SKU: errors with a
// null vendor_sku, several errors for one SKU, a SKU in another case. The sandbox always names the SKU, so these
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

async function createWith(answer: { status: number; body: unknown }, skus: string[]) {
	nextAnswer = answer;
	const store = new CredentialStore([sandboxCredential(sandbox(), { baseUrl: stubUrl })]);
	const parameters = {
		resource: 'item',
		operation: 'create',
		consignmentId: { __rl: true, mode: 'id', value: 'cons_12345' },
		...ITEM_PARAMETERS_FROM_JSON,
	};
	return outputOf(await runPackageNode(store, parameters, skus.map((sku) => validItem(sku)), CONTINUE_ON_FAIL));
}

it('reports an error with a null vendor_sku on every item of the batch, beside the SKU-specific ones', async () => {
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
		['S-0', 'S-1'],
	);
	expect(received).toHaveLength(1);
	expect(output.map((item) => [resultOf(item).status, item.pairedItem])).toEqual([
		['failed', { item: 0 }],
		['failed', { item: 1 }],
	]);
	expect(output[0].json.error).toBe('Item index 0 (vendor_sku S-0): consignment is closed for new items');
	expect(output[1].json.error).toBe('Item index 1 (vendor_sku S-1): consignment is closed for new items; price is invalid');
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

it('reports an error naming a SKU that was not sent on every item, rather than losing it', async () => {
	const output = await createWith({ status: 207, body: { error: [{ message: 'item is invalid', vendor_sku: 'NOT-SENT' }] } }, ['S-0', 'S-1']);
	expect(output.map((item) => item.json.error)).toEqual([
		'Item index 0 (vendor_sku S-0): item is invalid',
		'Item index 1 (vendor_sku S-1): item is invalid',
	]);
});
