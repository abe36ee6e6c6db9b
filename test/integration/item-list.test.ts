// Item → Get Many and Get Many Non-Approved through n8n's engine against the sandbox: the query each page sends
// (filters on every page, nothing for the service's default), records as the service returns them.
import { ItemSuite } from './item-harness';
import { outputOf } from './nodeRun.helpers';

const suite = new ItemSuite().install();

async function seededItems() {
	return (await suite.sandbox.admin.state()).items;
}

describe('Item → Get Many', () => {
	it('by default sends no validation_status and returns every non-approved item, following cursors', async () => {
		const result = await suite.run({ operation: 'getAll', returnAll: true, listOptions: { pageSize: 20 } }, [{}]);

		expect(result.error).toBeUndefined();
		const requests = await suite.apiRequests();
		expect(requests.length).toBeGreaterThan(1);
		for (const request of requests) {
			expect(request).toMatchObject({ method: 'GET', path: '/v1/items', status: 200 });
			expect(request.query).not.toHaveProperty('validation_status');
			expect(request.query).not.toHaveProperty('vendor_sku');
			expect(request.query.page_size).toBe('20');
		}
		expect(requests[0].query).not.toHaveProperty('after');
		expect(requests[1].query.after).toEqual(expect.any(String));

		const expected = (await seededItems()).filter((item) => item.validation_status !== 'approved');
		const output = outputOf(result);
		expect(output.map((item) => item.json.item_id).sort()).toEqual(expected.map((item) => item.item_id).sort());
		expect(output.every((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 0)).toBe(true);
		// The record as the service sends it: variant id and item_id, price in integer cents.
		expect(output[0].json).toEqual(
			expect.objectContaining({ id: expect.any(Number), item_id: expect.any(Number), price: expect.any(Number), vendor_sku: expect.any(String) }),
		);
	});

	it('sends the chosen validation status on every page', async () => {
		const result = await suite.run({ operation: 'getAll', validationStatus: 'approved', returnAll: true, listOptions: { pageSize: 10 } }, [{}]);

		const requests = await suite.apiRequests();
		expect(requests).toHaveLength(3); // 26 approved items, 10 per page
		expect(requests.map((request) => [request.query.validation_status, request.query.page_size])).toEqual([
			['approved', '10'],
			['approved', '10'],
			['approved', '10'],
		]);
		const approved = (await seededItems()).filter((item) => item.validation_status === 'approved');
		expect(outputOf(result)).toHaveLength(approved.length);
	});

	it('filters by vendor SKU, and returns nothing for an unknown one', async () => {
		const found = await suite.run({ operation: 'getAll', validationStatus: 'approved', filters: { vendorSku: 'sbx-1000' }, returnAll: true }, [{}]);
		expect(outputOf(found).map((item) => item.json.vendor_sku)).toEqual(['SBX-1000']);
		expect((await suite.apiRequests())[0].query).toEqual({ validation_status: 'approved', vendor_sku: 'sbx-1000', page_size: '100' });

		const none = await suite.run({ operation: 'getAll', filters: { vendorSku: 'NO-SUCH-SKU' }, returnAll: true }, [{}]);
		expect(none.error).toBeUndefined();
		expect(outputOf(none)).toHaveLength(0);
	});

	it('stops at the limit with one request', async () => {
		const result = await suite.run({ operation: 'getAll', returnAll: false, limit: 5 }, [{}]);
		expect(outputOf(result)).toHaveLength(5);
		const requests = await suite.apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0].query.page_size).toBe('5');
	});
});

describe('Item → Get Many Non-Approved', () => {
	it('lists non-approved items with status, quantity and the price object', async () => {
		const result = await suite.run({ operation: 'getNonApproved', returnAll: true }, [{}]);

		const requests = await suite.apiRequests();
		expect(requests.every((request) => request.path === '/v1/items/non_approved' && !('status' in request.query))).toBe(true);
		const output = outputOf(result);
		const expected = (await seededItems()).filter((item) => item.validation_status !== 'approved');
		expect(output).toHaveLength(expected.length);
		expect(output[0].json).toEqual(
			expect.objectContaining({
				item_id: expect.any(Number),
				item_status: expect.any(String),
				quantity: expect.any(Number),
				price: { currency_code: 'USD', price: expect.stringMatching(/^\d+\.\d{2}$/) },
			}),
		);
	});

	it('filters by status and vendor SKU on every page', async () => {
		const result = await suite.run(
			{ operation: 'getNonApproved', status: 'rejected', returnAll: true, listOptions: { pageSize: 2 } },
			[{}],
		);
		const rejected = (await seededItems()).filter((item) => item.validation_status === 'rejected');
		expect(outputOf(result).map((item) => item.json.item_status)).toEqual(rejected.map(() => 'rejected'));
		const requests = await suite.apiRequests();
		expect(rejected.length).toBeGreaterThan(2);
		expect(requests.length).toBe(Math.ceil(rejected.length / 2));
		expect(requests.every((request) => request.query.status === 'rejected' && request.query.page_size === '2')).toBe(true);

		await suite.sandbox.admin.clearRequests();
		const one = await suite.run({ operation: 'getNonApproved', filters: { vendorSku: 'SBX-1001' }, returnAll: true }, [{}]);
		expect(outputOf(one).map((item) => [item.json.vendor_sku, item.json.item_status])).toEqual([['SBX-1001', 'pending']]);
		expect((await suite.apiRequests())[0].query).toEqual({ vendor_sku: 'SBX-1001', page_size: '100' });
	});
});
