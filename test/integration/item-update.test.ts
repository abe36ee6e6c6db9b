// Item → Update (PATCH /v1/items/{item_id}, one per input item) through n8n's engine against the sandbox: the body per
// item status, 400/404 messages, and validation before any request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CONTINUE_ON_FAIL, ITEM_PARAMETERS_FROM_JSON, ItemSuite, validItem, validItemBody } from './item-harness';
import { outputOf } from './nodeRun.helpers';

const suite = new ItemSuite().install();

const seeded = (sku: string) => suite.storedItem(sku);

const updateAll = { operation: 'update', itemId: '={{ $json.itemId }}', fieldsToSend: 'all', ...ITEM_PARAMETERS_FROM_JSON };

describe('Item → Update, all fields (non-approved item)', () => {
	it('PATCHes /v1/items/{item_id} with every creation field in the contract types and outputs the answer', async () => {
		const pending = await seeded('SBX-1001');
		expect(pending.validation_status).toBe('pending');
		const row = validItem('SBX-1001', { itemId: pending.item_id, price: 99900, quantity: 1, designer: 'Prada' });
		const result = await suite.run({ ...updateAll, additionalFields: { addressId: '304' } }, [row]);

		expect(result.error).toBeUndefined();
		const requests = await suite.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'PATCH', path: `/v1/items/${pending.item_id}`, status: 200 });
		expect(requests[0].body).toEqual(validItemBody('SBX-1001', { designer: 'Prada', quantity: 1, price: 99900, address_id: '304' }));
		expect(outputOf(result)).toEqual([{ json: { id: String(pending.item_id), status: 'updated' }, pairedItem: { item: 0 } }]);
		expect(await seeded('SBX-1001')).toMatchObject({ price: 99900, designer: 'Prada', address_id: 304 });
	});

	it('a rejected item goes back to pending', async () => {
		const rejected = await seeded('SBX-1015');
		expect(rejected.validation_status).toBe('rejected');
		const result = await suite.run(updateAll, [validItem('SBX-1015', { itemId: rejected.item_id })]);
		expect(result.error).toBeUndefined();
		expect((await seeded('SBX-1015')).validation_status).toBe('pending');
	});

	it('one request per input item, each paired with its input', async () => {
		const a = await seeded('SBX-1001');
		const b = await seeded('SBX-1015');
		const result = await suite.run(updateAll, [validItem('SBX-1001', { itemId: a.item_id }), validItem('SBX-1015', { itemId: b.item_id })]);
		expect((await suite.apiRequests()).map((request) => request.path).sort()).toEqual([`/v1/items/${a.item_id}`, `/v1/items/${b.item_id}`].sort());
		expect(outputOf(result).map((item) => [item.json.id, item.pairedItem])).toEqual([
			[String(a.item_id), { item: 0 }],
			[String(b.item_id), { item: 1 }],
		]);
	});
});

describe('Item → Update, address and quantity only (approved item)', () => {
	it('sends address_id (a string), then quantity in its own request; the output says the quantity applies only as a decrease', async () => {
		const approved = await seeded('SBX-1004');
		expect(approved.validation_status).toBe('approved');
		const result = await suite.run(
			{ operation: 'update', itemId: String(approved.item_id), fieldsToSend: 'approved', approvedItemFields: { addressId: '304', quantity: approved.quantity - 1 } },
			[{}],
		);
		expect(result.error).toBeUndefined();
		expect((await suite.apiRequests()).map((request) => request.body)).toEqual([{ address_id: '304' }, { quantity: approved.quantity - 1 }]);
		expect(await seeded('SBX-1004')).toMatchObject({ quantity: approved.quantity - 1, address_id: 304 });
		expect(outputOf(result)[0].json).toMatchObject({ status: 'updated', quantityNote: expect.stringMatching(/only when it is lower than its current one/) });
	});

	it('a quantity the service refuses (an increase) does not take the address change with it, and the error says what was applied', async () => {
		const approved = await seeded('SBX-1004');
		const result = await suite.run(
			{ operation: 'update', itemId: String(approved.item_id), fieldsToSend: 'approved', approvedItemFields: { addressId: '304', quantity: approved.quantity + 5 } },
			[{}],
			CONTINUE_ON_FAIL,
		);
		expect(result.error).toBeUndefined();
		expect(await seeded('SBX-1004')).toMatchObject({ quantity: approved.quantity, address_id: 304 });
		const output = outputOf(result)[0].json;
		expect(output.error).toMatch(/quantity is invalid/);
		expect(output.message).toMatch(/^address_id 304 was applied \(an earlier request\); this error is the quantity \d+'s request\./);
	});

	it('without Continue On Fail, an item whose address went through and whose quantity was refused is named as partly carried out; no "run again"', async () => {
		const approved = await seeded('SBX-1004');
		const result = await suite.run(
			{ operation: 'update', itemId: String(approved.item_id), fieldsToSend: 'approved', approvedItemFields: { addressId: '304', quantity: approved.quantity + 5 } },
			[{}],
		);
		expect(await seeded('SBX-1004')).toMatchObject({ quantity: approved.quantity, address_id: 304 });
		const description = String((result.error as { description?: string }).description);
		expect(description).toMatch(/^address_id 304 was applied \(an earlier request\)/);
		expect(description).toContain('Partly carried out: item index 0');
		expect(description).not.toMatch(/\b(run|try)\b[^.]*\bagain\b/i);
	});

	it('refuses to send neither field', async () => {
		const result = await suite.run({ operation: 'update', itemId: '5', fieldsToSend: 'approved', approvedItemFields: {} }, [{}]);
		expect(result.error?.message).toMatch(/^Item index 0: address_id or quantity must be given/);
		expect(await suite.apiRequests()).toHaveLength(0);
	});
});

describe('Item → Update errors', () => {
	it('404: names the missing item_id and explains item_id is not id', async () => {
		const approved = await seeded('SBX-1000');
		// The variant id is a real number of the same item, but not what the API takes.
		const result = await suite.run(
			{ operation: 'update', itemId: String(approved.id), fieldsToSend: 'approved', approvedItemFields: { quantity: 0 } },
			[{}],
		);
		expect(result.error?.message).toBe(`Item with item_id ${approved.id} was not found: Item ${approved.id} not found`);
		expect(String((result.error as { description?: string }).description)).toMatch(/"item_id".*not its "id"/);
	});

	it('400: the message carries the service text naming the field', async () => {
		const pending = await seeded('SBX-1001');
		const result = await suite.run(updateAll, [validItem('SBX-1001', { itemId: pending.item_id, condition: 'Like New' })]);
		expect(result.error?.message).toMatch(/The service rejected the request: condition is invalid/);
		expect((await suite.apiRequests())[0].status).toBe(400);
	});

	it('400 on a quantity increase of an approved item', async () => {
		const approved = await seeded('SBX-1004');
		const result = await suite.run(
			{ operation: 'update', itemId: String(approved.item_id), fieldsToSend: 'approved', approvedItemFields: { quantity: approved.quantity + 5 } },
			[{}],
		);
		expect(result.error?.message).toMatch(/quantity is invalid: can only be decreased/);
	});

	it('invalid input makes no request and names the item index and field; Continue On Fail goes on', async () => {
		const pending = await seeded('SBX-1001');
		const rows = [validItem('SBX-1001', { itemId: pending.item_id, msrp: '12.5' }), validItem('SBX-1001', { itemId: pending.item_id })];
		const failed = await suite.run(updateAll, rows);
		expect(failed.error?.message).toMatch(/^Item index 0: msrp must be a whole number of cents/);

		await suite.sandbox.admin.clearRequests();
		const continued = await suite.run(updateAll, rows, CONTINUE_ON_FAIL);
		const output = outputOf(continued);
		expect(output).toHaveLength(2);
		expect(output[0].json.error).toMatch(/^Item index 0: msrp must be a whole number of cents/);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[1].json).toEqual({ id: String(pending.item_id), status: 'updated' });
		expect(await suite.apiRequests()).toHaveLength(1);
	});

	it('without Continue On Fail, an invalid item anywhere in the input stops the node before any request', async () => {
		const pending = await seeded('SBX-1001');
		const other = await seeded('SBX-1015');
		const rows = [validItem('SBX-1001', { itemId: pending.item_id }), validItem('SBX-1015', { itemId: other.item_id, price: -5 })];
		const result = await suite.run(updateAll, rows);
		expect(result.error?.message).toMatch(/^Item index 1: price/);
		expect(await suite.apiRequests()).toHaveLength(0);
	});

	it('with Continue On Fail, a 404 on one item leaves the others updated: one output item per input item, in order', async () => {
		const a = await seeded('SBX-1001');
		const b = await seeded('SBX-1015');
		const rows = [validItem('SBX-1001', { itemId: a.item_id }), validItem('SBX-9999', { itemId: 987654 }), validItem('SBX-1015', { itemId: b.item_id })];
		const output = outputOf(await suite.run(updateAll, rows, CONTINUE_ON_FAIL));
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toEqual({ id: String(a.item_id), status: 'updated' });
		expect(output[1].json.error).toBe('Item with item_id 987654 was not found: Item 987654 not found');
		expect(output[2].json).toEqual({ id: String(b.item_id), status: 'updated' });
	});

	it('without Continue On Fail, a failed request stops the node from starting more (one at a time here: nothing after it is sent)', async () => {
		const a = await seeded('SBX-1001');
		const rows = [validItem('SBX-9999', { itemId: 987654 }), validItem('SBX-1001', { itemId: a.item_id })];
		const result = await suite.run({ ...updateAll, requestOptions: { maxConcurrent: 1 } }, rows);
		expect(result.error?.message).toBe('Item with item_id 987654 was not found: Item 987654 not found');
		expect((await suite.apiRequests()).map((request) => request.path)).toEqual(['/v1/items/987654']);
	});

	it('without Continue On Fail, a failure takes the requests still waiting in the queue out of it (2 req/s: the next would leave 500 ms later)', async () => {
		const a = await seeded('SBX-1001');
		const b = await seeded('SBX-1015');
		const rows = [validItem('SBX-9999', { itemId: 987654 }), validItem('SBX-1001', { itemId: a.item_id }), validItem('SBX-1015', { itemId: b.item_id })];
		const result = await suite.run({ ...updateAll, requestOptions: { maxRequestsPerSecond: 2 } }, rows);
		expect(result.error?.message).toBe('Item with item_id 987654 was not found: Item 987654 not found');
		await new Promise((resolve) => setTimeout(resolve, 1_200));
		expect((await suite.apiRequests()).map((request) => request.path)).toEqual(['/v1/items/987654']);
	});

	it('sends through the proxy of n8n\'s Request Options → Proxy', async () => {
		const pending = await seeded('SBX-1001');
		const seen: string[] = [];
		const proxy = createServer((request, response) => {
			seen.push(`${request.method} ${request.url}`);
			response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'via-proxy', status: 'updated' }));
		});
		await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = proxy.address() as AddressInfo;
			const result = await suite.run({ ...updateAll, requestOptions: { proxy: `http://127.0.0.1:${port}` } }, [validItem('SBX-1001', { itemId: pending.item_id })]);
			expect(outputOf(result)[0].json).toEqual({ id: 'via-proxy', status: 'updated' });
			expect(seen).toHaveLength(1);
			expect(seen[0]).toMatch(new RegExp(`^PATCH .*/v1/items/${pending.item_id}$`));
			expect(await suite.apiRequests()).toHaveLength(0);
		} finally {
			await new Promise((resolve) => proxy.close(resolve));
		}
	});

	it('an empty Item ID is refused before any request', async () => {
		// An expression that yields nothing passes n8n's static "required" check and reaches the node.
		const result = await suite.run(updateAll, [validItem('SBX-1001', { itemId: '' })]);
		expect(result.error?.message).toMatch(/^Item index 0: Item ID \(item_id\) is required/);
		expect(await suite.apiRequests()).toHaveLength(0);
	});
});
