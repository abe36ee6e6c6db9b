// Item → Create or Update (upsert by vendor_sku) through n8n's engine against the sandbox: the create path, the
// update path, the approved-item path (ignored fields listed), the requests each makes, and failures.
import { CONTINUE_ON_FAIL, ITEM_PARAMETERS_FROM_JSON, ItemSuite, validItem } from './item-harness';
import { outputOf, resultOf } from './nodeRun.helpers';

const suite = new ItemSuite().install();

const upsertIn = (consignment: string) => ({
	operation: 'upsert',
	consignmentId: { __rl: true, mode: 'id', value: consignment },
	...ITEM_PARAMETERS_FROM_JSON,
});

const seeded = (sku: string) => suite.storedItem(sku);

const requestLine = (request: { method: string; path: string; query: Record<string, string> }) =>
	`${request.method} ${request.path}${Object.keys(request.query).length ? `?${new URLSearchParams(request.query).toString()}` : ''}`;

describe('Item → Create or Update', () => {
	it('creates an item no listing has: two lookups, then the batched POST; output says created', async () => {
		const result = await suite.run(upsertIn('cons_12345'), [validItem('UP-NEW-1')]);

		expect(result.error).toBeUndefined();
		const requests = await suite.apiRequests();
		expect(requests.map(requestLine)).toEqual([
			'GET /v1/items/non_approved?vendor_sku=UP-NEW-1',
			'GET /v1/items?validation_status=approved&vendor_sku=UP-NEW-1',
			'POST /v1/consignments/cons_12345/items',
		]);
		expect((requests[2].body as { items: unknown[] }).items).toEqual([expect.objectContaining({ vendor_sku: 'UP-NEW-1', price: 129900, quantity: 2 })]);
		expect(outputOf(result)).toEqual([
			{
				json: expect.objectContaining({ operation: 'created', status: 'submitted', consignment_id: 'cons_12345', vendor_sku: 'UP-NEW-1' }),
				pairedItem: { item: 0 },
			},
		]);
		expect((await seeded('UP-NEW-1')).validation_status).toBe('pending');
	});

	it('a new item the service\'s 207 does not account for is created but not confirmed, and the failure message says so', async () => {
		await suite.sandbox.admin.addFault({
			kind: 'status',
			status: 207,
			method: 'POST',
			pathPrefix: '/v1/consignments/',
			body: { error: [{ message: 'price is invalid', vendor_sku: 'UP-BAD' }, { message: 'try later', vendor_sku: null }] },
		});
		const result = await suite.run(upsertIn('cons_12345'), [validItem('UP-NEW-2'), validItem('UP-BAD')]);

		expect(result.error?.message).toBe('1 of 2 items failed. Item index 1 (vendor_sku UP-BAD): price is invalid');
		const description = String((result.error as { description?: string }).description);
		expect(description).toMatch(/^The other 1 item\(s\) were sent to the service/);
		expect(description).toContain("1 of them were submitted, but the service's answer did not confirm them");
	});

	it('updates a non-approved item found by SKU: one lookup and one PATCH with every field', async () => {
		const pending = await seeded('SBX-1001');
		const result = await suite.run(upsertIn('cons_12345'), [validItem('SBX-1001', { price: 77700, quantity: 1 })]);

		expect(result.error).toBeUndefined();
		const requests = await suite.apiRequests();
		expect(requests.map(requestLine)).toEqual(['GET /v1/items/non_approved?vendor_sku=SBX-1001', `PATCH /v1/items/${pending.item_id}`]);
		expect(requests[1].body).toMatchObject({ vendor_sku: 'SBX-1001', price: 77700, quantity: 1, gender: ['Women'], image: expect.any(Object) });
		expect(outputOf(result)[0].json).toMatchObject({
			operation: 'updated',
			status: 'updated',
			item_id: pending.item_id,
			validation_status: 'pending',
			vendor_sku: 'SBX-1001',
			price: 77700,
			ignoredFields: [],
		});
		expect((await seeded('SBX-1001')).price).toBe(77700);
	});

	it('finds the SKU whatever its case and keeps the service\'s spelling in the PATCH', async () => {
		const pending = await seeded('SBX-1001');
		await suite.run(upsertIn('cons_12345'), [validItem('sbx-1001', { quantity: 1 })]);
		const requests = await suite.apiRequests();
		expect(requests[1]).toMatchObject({ method: 'PATCH', path: `/v1/items/${pending.item_id}`, status: 200 });
		expect((requests[1].body as { vendor_sku: string }).vendor_sku).toBe('SBX-1001');
	});

	it('updates an approved item with only address_id; its quantity, not shown by the service, is not sent and the output says why', async () => {
		const approved = await seeded('SBX-1004');
		expect(approved.validation_status).toBe('approved');
		// An increase: sent with the address, the service would refuse the whole PATCH (or ignore the quantity).
		const row = validItem('SBX-1004', { quantity: approved.quantity + 3, price: 1 });
		const result = await suite.run({ ...upsertIn('cons_12345'), additionalFields: { addressId: '304' } }, [row]);

		expect(result.error).toBeUndefined();
		const requests = await suite.apiRequests();
		expect(requests.map(requestLine)).toEqual([
			'GET /v1/items/non_approved?vendor_sku=SBX-1004',
			'GET /v1/items?validation_status=approved&vendor_sku=SBX-1004',
			`PATCH /v1/items/${approved.item_id}`,
		]);
		expect(requests[2].body).toEqual({ address_id: '304' });
		const output = outputOf(result)[0].json;
		expect(output).toMatchObject({ operation: 'updated', status: 'updated', validation_status: 'approved', item_id: approved.item_id, address_id: '304' });
		expect(output.ignoredFields).toEqual([
			'taxon_permalink',
			'condition',
			'with_tags',
			'designer',
			'image',
			'quantity',
			'msrp',
			'price',
			'gender',
			'taxon_specific_attributes',
		]);
		expect(output.quantityNotSent).toMatch(/^quantity \d+ was not sent: an approved item takes only a quantity decrease, and the service does not show/);
		expect(output).not.toHaveProperty('price');
		expect(output).not.toHaveProperty('quantity');
		const after = await seeded('SBX-1004');
		expect(after).toMatchObject({ quantity: approved.quantity, address_id: 304, price: approved.price });
	});

	it('an approved item given nothing it takes gets no request, and its output says "not applied", not "updated"', async () => {
		const approved = await seeded('SBX-1004');
		const result = await suite.run(upsertIn('cons_12345'), [validItem('SBX-1004', { quantity: approved.quantity - 1 })]);

		expect(result.error).toBeUndefined();
		expect((await suite.apiRequests()).filter((request) => request.method !== 'GET')).toEqual([]);
		expect(outputOf(result)[0].json).toMatchObject({ operation: 'not applied', status: 'not applied', item_id: approved.item_id });
		expect(outputOf(result)[0].json.quantityNotSent).toContain('Item → Update with Fields to Send → Address and Quantity Only');
	});

	it('handles a mix in one run: updates in place, new items in one POST per consignment, outputs in input order', async () => {
		const rows = [validItem('MIX-NEW-0'), validItem('SBX-1001', { quantity: 1 }), validItem('MIX-NEW-2')];
		const result = await suite.run(upsertIn('cons_67890'), rows);

		expect(result.error).toBeUndefined();
		const posts = (await suite.apiRequests()).filter((request) => request.method === 'POST');
		expect(posts).toHaveLength(1);
		expect((posts[0].body as { items: Array<{ vendor_sku: string }> }).items.map((item) => item.vendor_sku)).toEqual(['MIX-NEW-0', 'MIX-NEW-2']);
		expect(outputOf(result).map((item) => [item.json.operation, resultOf(item).vendor_sku, item.pairedItem])).toEqual([
			['created', 'MIX-NEW-0', { item: 0 }],
			['updated', 'SBX-1001', { item: 1 }],
			['created', 'MIX-NEW-2', { item: 2 }],
		]);
	});
});

describe('Item → Create or Update failures', () => {
	it('a refused update, and a new item with quantity 0, fail per item; the rest go on with Continue On Fail', async () => {
		// SBX-1003 is rejected with quantity 0: the service refuses to raise it.
		const rows = [
			validItem('SBX-1003'),
			validItem('UP-ZERO', { quantity: 0 }),
			validItem('UP-OK'),
		];
		const result = await suite.run(upsertIn('cons_12345'), rows, CONTINUE_ON_FAIL);

		expect(result.error).toBeUndefined();
		const output = outputOf(result);
		expect(output.map((item) => [resultOf(item).status, item.pairedItem])).toEqual([
			['failed', { item: 0 }],
			['failed', { item: 1 }],
			['submitted', { item: 2 }],
		]);
		expect(output[0].json.error).toMatch(/^Item index 0 \(vendor_sku SBX-1003\): The service rejected the request: quantity is invalid: cannot be raised from 0/);
		expect(output[1].json.error).toMatch(/quantity must be at least 1 to create an item/);
	});

	it('without Continue On Fail the node fails listing the failed SKU; invalid input makes no request', async () => {
		const invalid = await suite.run(upsertIn('cons_12345'), [validItem('UP-1'), validItem('UP-2', { designer: '' })]);
		expect(invalid.error?.message).toMatch(/^1 of 2 items failed\. Item index 1 \(vendor_sku UP-2\): designer is required/);
		expect(await suite.apiRequests()).toHaveLength(0);

		const refused = await suite.run(upsertIn('cons_12345'), [validItem('SBX-1003')]);
		expect(refused.error?.message).toMatch(/^1 of 1 items failed\. Item index 0 \(vendor_sku SBX-1003\): The service rejected the request: quantity is invalid/);
	});
});
