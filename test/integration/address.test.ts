// Address → Create / Update / Delete / Get Many through n8n-core against the sandbox, and the validation that
// stops a bad address before any request.
import { ADDRESS_PARAMETERS_FROM_JSON, addressParameters, validAddress } from './address-input';
import { jsonTypes, locator, runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

const ADDRESS_FIELDS = ['first_name', 'last_name', 'address1', 'address2', 'city', 'state_abbr', 'zipcode', 'country_iso', 'phone'];

/** Node parameters of the nine address fields, each mapped from the input item by expression. */
const mappedFields = ADDRESS_PARAMETERS_FROM_JSON;

const VALID = validAddress({ zipcode: '02108-1234' });

describe('Address → Create', () => {
	it('sends the nine contract fields as JSON strings and outputs the created address', async () => {
		const { result, items, requests } = await runNode(sandbox(), { resource: 'address', operation: 'create', ...mappedFields }, { inputItems: [VALID] });
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/vendor/addresses', query: {}, status: 201 });
		expect(requests[0].body).toEqual(VALID);
		expect(jsonTypes(requests[0].body)).toEqual(Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, 'string'])));
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ ...VALID, active: true });
		const created = (await sandbox().admin.state()).addresses.find((a) => a.address1 === VALID.address1);
		expect(items[0].json.address_id).toBe(String(created?.address_id));
	});

	it('a territory address (city = state) and an empty address2 are accepted', async () => {
		const pr = { ...VALID, city: 'PR', state_abbr: 'PR', zipcode: '00901', country_iso: 'pri', address2: '' };
		const { requests, result } = await runNode(sandbox(), { resource: 'address', operation: 'create', ...mappedFields }, { inputItems: [pr] });
		expect(result.error).toBeUndefined();
		expect(requests[0].body).toMatchObject({ city: 'PR', state_abbr: 'PR', country_iso: 'PRI', address2: '' });
	});

	it('country US with state PR is a territory address: accepted by the node and the service', async () => {
		const pr = { ...VALID, city: 'pr', state_abbr: 'PR', zipcode: '00901', country_iso: 'US' };
		const { requests, result, items } = await runNode(sandbox(), { resource: 'address', operation: 'create', ...mappedFields }, { inputItems: [pr] });
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ status: 201, body: { city: 'PR', state_abbr: 'PR', country_iso: 'US' } });
		expect(items).toHaveLength(1);
	});

	it.each([
		['a zip with a space', { zipcode: '23681 2199' }, /Item index 0: zipcode must be ##### or #####-####/],
		['a zip of 4 digits', { zipcode: '2368' }, /Item index 0: zipcode/],
		['a phone with +1', { phone: '+1 757-555-0199' }, /Item index 0: phone must be a 10-digit US number/],
		['a phone with a space in the digits', { phone: '757 555 0199' }, /Item index 0: phone/],
		['a phone written (###)-###-####', { phone: '(757)-555-0199' }, /Item index 0: phone/],
		['a phone without area code', { phone: '555-0199' }, /Item index 0: phone/],
		['a country outside the US', { country_iso: 'CA' }, /Item index 0: country_iso must be the United States or a US territory/],
		['a territory whose city differs from its state', { city: 'San Juan', state_abbr: 'PR', country_iso: 'PR', zipcode: '00901' }, /Item index 0: city must equal state_abbr for a US territory/],
		['a territory whose state_abbr is not its abbreviation', { city: 'San Juan', state_abbr: 'San Juan', country_iso: 'PR', zipcode: '00901' }, /Item index 0: state_abbr must be PR/],
		['a missing first name', { first_name: '' }, /Item index 0: first_name is required/],
		['a missing city', { city: '  ' }, /Item index 0: city is required/],
	])('rejects %s before any request', async (_label, change, message) => {
		const { result, requests } = await runNode(sandbox(), { resource: 'address', operation: 'create', ...mappedFields }, { inputItems: [{ ...VALID, ...change }] });
		expect(result.error?.message).toMatch(message);
		expect(requests).toHaveLength(0);
	});

	it('names the index of the bad item; with Continue On Fail the good items are created and the bad one is an error item', async () => {
		const { items, requests } = await runNode(
			sandbox(),
			{ resource: 'address', operation: 'create', ...mappedFields },
			{ inputItems: [VALID, { ...VALID, zipcode: '1234 5' }, { ...VALID, address1: '2 Other St' }], settings: { continueOnFail: true } },
		);
		expect(requests).toHaveLength(2);
		expect(items).toHaveLength(3);
		expect(items[0].json.address1).toBe(VALID.address1);
		expect(String(items[1].json.error)).toMatch(/^Item index 1: zipcode/);
		expect(items[2].json.address1).toBe('2 Other St');
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('without Continue On Fail, a refused POST takes the creations still waiting in the queue out of it: none is sent after the node failed', async () => {
		await sandbox().admin.addFault({ kind: 'status', status: 400, method: 'POST', pathPrefix: '/v1/vendor/addresses', count: 1, body: { error: 'refused' } });
		const rows = [VALID, { ...VALID, address1: '2 Other St' }, { ...VALID, address1: '3 Other St' }];
		const parameters = { resource: 'address', operation: 'create', ...mappedFields, requestOptions: { maxRequestsPerSecond: 2 } };
		const { result } = await runNode(sandbox(), parameters, { inputItems: rows });
		expect(result.error).toBeDefined();
		// 2 req/s: the second creation would have left 500 ms after the first.
		await new Promise((resolve) => setTimeout(resolve, 1_200));
		const posts = (await sandbox().admin.requests()).filter((request) => request.method === 'POST' && request.path === '/v1/vendor/addresses');
		expect(posts.map((request) => request.status)).toEqual([400]);
	});
});

describe('Address → Create / Update: an answer without a body (the contract does not show it)', () => {
	const sent = validAddress({ address2: '' });
	const fields = addressParameters({ ...sent, state_abbr: 'ma' });

	it('Create outputs one object item per input item: success and the address as sent', async () => {
		await sandbox().admin.addFault({ kind: 'status', status: 204, method: 'POST', pathPrefix: '/v1/vendor/addresses', count: 2 });
		const { items, requests, result } = await runNode(sandbox(), { resource: 'address', operation: 'create', ...fields }, { inputItems: [{}, {}] });
		expect(result.error).toBeUndefined();
		expect(requests.map((request) => request.status)).toEqual([204, 204]);
		expect(items.map((item) => [item.json, item.pairedItem])).toEqual([
			[{ success: true, ...sent }, { item: 0 }],
			[{ success: true, ...sent }, { item: 1 }],
		]);
	});

	it('Update outputs success, the address ID and the address as sent', async () => {
		await sandbox().admin.addFault({ kind: 'status', status: 204, method: 'PATCH', pathPrefix: '/v1/vendor/addresses/301' });
		const { items, result } = await runNode(sandbox(), { resource: 'address', operation: 'update', addressId: locator('301', 'id'), ...fields });
		expect(result.error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({ success: true, address_id: '301', ...sent });
	});
});

describe('Address → Update', () => {
	it('picked from the list: PATCH /v1/vendor/addresses/{id} with all nine fields, outputs the updated address', async () => {
		const { result, items, requests } = await runNode(
			sandbox(),
			{ resource: 'address', operation: 'update', addressId: locator('301'), ...mappedFields },
			{ inputItems: [VALID] },
		);
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'PATCH', path: '/v1/vendor/addresses/301', status: 200 });
		expect(requests[0].body).toEqual(VALID);
		expect(items[0].json).toMatchObject({ address_id: '301', ...VALID });
	});

	it('validates before sending, like create', async () => {
		const { result, requests } = await runNode(
			sandbox(),
			{ resource: 'address', operation: 'update', addressId: locator('301', 'id'), ...mappedFields },
			{ inputItems: [{ ...VALID, phone: '+17575550199' }] },
		);
		expect(result.error?.message).toMatch(/^Item index 0: phone/);
		expect(requests).toHaveLength(0);
	});

	it('an unknown address: 404 naming it; an inactive one: the service\'s reason', async () => {
		const unknown = await runNode(sandbox(), { resource: 'address', operation: 'update', addressId: locator('999', 'id'), ...mappedFields }, { inputItems: [VALID] });
		expect(unknown.result.error?.message).toBe('Address 999 was not found: Address 999 not found');
		expect(unknown.result.error?.description).toMatch(/Address → Get Many/);

		const inactive = await runNode(sandbox(), { resource: 'address', operation: 'update', addressId: locator('303', 'id'), ...mappedFields }, { inputItems: [VALID] });
		expect(inactive.result.error?.message).toBe('The service answered HTTP 409: Address 303 is inactive; only an active address can be updated');
	});
});

describe('Address → Delete', () => {
	it('sends DELETE /v1/vendor/addresses/{id}, outputs the now-inactive address', async () => {
		const { result, items, requests } = await runNode(sandbox(), { resource: 'address', operation: 'delete', addressId: locator('304') });
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'DELETE', path: '/v1/vendor/addresses/304', query: {}, body: null, status: 200 });
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ address_id: '304', active: false });
		expect((await sandbox().admin.state()).addresses.find((a) => a.address_id === 304)?.active).toBe(false);
	});

	it('a DELETE whose answer is lost is sent again; a repeat refused because the first deleted it is "outcome unknown", never "not deleted"', async () => {
		// The first DELETE is carried out after the node's 100 ms timeout; the repeat finds the address inactive (409).
		await sandbox().admin.addFault({ kind: 'latency', ms: 200, method: 'DELETE', pathPrefix: '/v1/vendor/addresses/304' });
		const { result, items, requests } = await runNode(
			sandbox(),
			{ resource: 'address', operation: 'delete', addressId: locator('={{ $json.id }}'), requestOptions: { timeout: 100 } },
			{ inputItems: [{ id: '304' }, { id: '302' }], settings: { continueOnFail: true } },
		);
		expect(result.error).toBeUndefined();
		expect(requests.filter((request) => request.path.endsWith('/304')).map((request) => request.status)).toEqual([200, 409]);
		expect((await sandbox().admin.state()).addresses.find((a) => a.address_id === 304)?.active).toBe(false);
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toMatch(/^Outcome unknown — an earlier attempt may have been carried out .*refused the repeat \(HTTP 409\)/);
		expect(String(items[0].json.message)).toContain('Address → Get Many shows whether the address is still active');
		expect(String(items[0].json.message)).not.toMatch(/run the node again/i);
		expect(items[1].json).toMatchObject({ address_id: '302', active: false });
	});
});

describe('Address → Get Many', () => {
	it('returns every address as returned (active and inactive), one item per record', async () => {
		const { result, items, requests } = await runNode(sandbox(), { resource: 'address', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(requests).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/vendor/addresses', query: { page_size: '100' }, status: 200 })]);
		expect(items.map((i) => [i.json.address_id, i.json.active])).toEqual([
			['301', true],
			['302', true],
			['303', false],
			['304', true],
		]);
	});
});
