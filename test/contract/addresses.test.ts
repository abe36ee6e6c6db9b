import { useSandbox, validAddress, validItem } from './helpers';

const { sb, api } = useSandbox();
const createAddress = (body: unknown) => api().request('POST', '/v1/vendor/addresses', { body });

describe('GET /v1/vendor/addresses', () => {
	it('lists active and inactive addresses under `addresses`, with string address_id and name', async () => {
		const res = await api().get('/v1/vendor/addresses');
		expect(res.status).toBe(200);
		const { addresses } = res.body;
		expect(addresses.map((a: { address_id: string; active: boolean }) => [a.address_id, a.active])).toEqual([
			['301', true],
			['302', true],
			['303', false],
			['304', true],
		]);
		expect(addresses[0]).toEqual({
			address_id: '301',
			active: true,
			name: 'Ada Lovelace',
			first_name: 'Ada',
			last_name: 'Lovelace',
			address1: '12 W 31st St',
			address2: '',
			city: 'New York',
			state_abbr: 'NY',
			zipcode: '10001',
			country_iso: 'US',
			phone: '(212) 555-0101',
			email: null,
			created_at: expect.any(String),
			updated_at: expect.any(String),
		});
	});
});

describe('POST /v1/vendor/addresses', () => {
	it('creates an active address: 201 {address}', async () => {
		const res = await createAddress(validAddress());
		expect(res.status).toBe(201);
		expect(res.body.address).toMatchObject({ active: true, name: 'Mary Shelley', city: 'Boston', zipcode: '02108' });
		expect(typeof res.body.address.address_id).toBe('string');
		const listed = await api().get('/v1/vendor/addresses');
		expect(listed.body.addresses.map((a: { address_id: string }) => a.address_id)).toContain(res.body.address.address_id);
		// The new address can be linked to items.
		const item = await api().request('POST', '/v1/consignments/cons_12345/items', {
			body: { items: [validItem({ address_id: res.body.address.address_id })] },
		});
		expect(item.status).toBe(200);
	});

	it.each([
		['US', 'NY', 'New York'],
		['USA', 'CA', 'Los Angeles'],
		['PR', 'PR', 'PR'],
		['PRI', 'PR', 'PR'],
		['GU', 'GU', 'GU'],
		['GUM', 'GU', 'GU'],
		['VI', 'VI', 'VI'],
		['VIR', 'VI', 'VI'],
		['AS', 'AS', 'AS'],
		['ASM', 'AS', 'AS'],
		['MP', 'MP', 'MP'],
		['MNP', 'MP', 'MP'],
		['US', 'PR', 'PR'],
	])('accepts country_iso %s with state_abbr %s and city %s', async (country_iso, state_abbr, city) => {
		const res = await createAddress(validAddress({ country_iso, state_abbr, city }));
		expect(res.status).toBe(201);
	});

	it.each(['12345', '12345-6789'])('accepts zipcode %s', async (zipcode) => {
		expect((await createAddress(validAddress({ zipcode }))).status).toBe(201);
	});

	it.each(['(212) 555-0101', '212-555-0101', '2125550101'])('accepts phone %s', async (phone) => {
		expect((await createAddress(validAddress({ phone }))).status).toBe(201);
	});

	const invalid: Array<[string, Record<string, unknown>, RegExp]> = [
		['a Canadian address', { country_iso: 'CA', state_abbr: 'ON', city: 'Toronto' }, /country_iso is invalid/],
		['a three-letter foreign code', { country_iso: 'GBR' }, /country_iso is invalid/],
		['a made-up country', { country_iso: 'XX' }, /country_iso is invalid/],
		['an unknown US state', { state_abbr: 'ZZ' }, /state_abbr is invalid/],
		['a territory whose city differs from state_abbr', { country_iso: 'PRI', state_abbr: 'PR', city: 'San Juan' }, /city is invalid/],
		['a territory with a state of another place', { country_iso: 'GU', state_abbr: 'NY', city: 'NY' }, /state_abbr is invalid/],
		['a 4-digit zip', { zipcode: '1234' }, /zipcode is invalid/],
		['a 9-digit zip without hyphen', { zipcode: '123456789' }, /zipcode is invalid/],
		['a zip with a space', { zipcode: '12345 6789' }, /zipcode is invalid/],
		['a zip with letters', { zipcode: '1234A' }, /zipcode is invalid/],
		['a ZIP+4 with 3 digits', { zipcode: '12345-678' }, /zipcode is invalid/],
		['a phone with a space in the numeric part', { phone: '(212) 555 0101' }, /phone is invalid/],
		['a phone with a leading +1', { phone: '+1 212-555-0101' }, /phone is invalid/],
		['a phone with a leading +1, no spaces', { phone: '+12125550101' }, /phone is invalid/],
		['a phone without area code', { phone: '555-0101' }, /phone is invalid/],
		['a phone as (###)-###-####', { phone: '(212)-555-0101' }, /phone is invalid/],
		['a phone with 9 digits', { phone: '212555010' }, /phone is invalid/],
		['a missing first_name', { first_name: undefined }, /first_name is required/],
		['an empty last_name', { last_name: '' }, /last_name is required/],
		['a missing address2', { address2: undefined }, /address2 is required/],
		['a numeric zipcode', { zipcode: 12345 }, /zipcode is invalid: must be a string/],
		['name instead of first_name/last_name', { first_name: undefined, last_name: undefined, name: 'Mary Shelley' }, /first_name is required/],
	];

	it.each(invalid)('answers 400 {error} naming the field for %s', async (_label, overrides, pattern) => {
		const before = (await sb().admin.state()).addresses.length;
		const res = await createAddress(validAddress(overrides));
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ error: expect.stringMatching(pattern) });
		expect((await sb().admin.state()).addresses.length).toBe(before);
	});

	it('names every invalid field at once', async () => {
		const res = await createAddress(validAddress({ zipcode: '1', phone: '1' }));
		expect(res.body.error).toMatch(/zipcode.*phone/);
	});
});

describe('PATCH /v1/vendor/addresses/{address_id}', () => {
	it('updates an active address with all fields: 200 {address}', async () => {
		const res = await api().request('PATCH', '/v1/vendor/addresses/301', { body: validAddress({ city: 'Albany', zipcode: '12207-1234' }) });
		expect(res.status).toBe(200);
		expect(res.body.address).toMatchObject({ address_id: '301', active: true, city: 'Albany', zipcode: '12207-1234', name: 'Mary Shelley' });
	});

	it('applies the same rules as create', async () => {
		const res = await api().request('PATCH', '/v1/vendor/addresses/301', { body: validAddress({ phone: '(212)-555-0101' }) });
		expect(res.status).toBe(400);
		expect(res.body.error).toMatch(/phone is invalid/);
		const partial = await api().request('PATCH', '/v1/vendor/addresses/301', { body: { city: 'Albany' } });
		expect(partial.status).toBe(400);
		expect(partial.body.error).toMatch(/first_name is required/);
	});

	it('answers 409 {error} for an inactive address and 404 {error} for an unknown one', async () => {
		const inactive = await api().request('PATCH', '/v1/vendor/addresses/303', { body: validAddress() });
		expect(inactive.status).toBe(409);
		expect(inactive.body.error).toMatch(/inactive/);
		const unknown = await api().request('PATCH', '/v1/vendor/addresses/9999', { body: validAddress() });
		expect(unknown.status).toBe(404);
		expect(unknown.body).toEqual({ error: expect.any(String) });
	});
});

describe('DELETE /v1/vendor/addresses/{address_id}', () => {
	it('marks the address inactive (history kept), after which it cannot be updated or linked', async () => {
		const res = await api().request('DELETE', '/v1/vendor/addresses/304');
		expect(res.status).toBe(200);
		expect(res.body.address).toMatchObject({ address_id: '304', active: false });
		const listed = await api().get('/v1/vendor/addresses');
		expect(listed.body.addresses.find((a: { address_id: string }) => a.address_id === '304')).toMatchObject({ active: false, city: 'Chicago' });
		expect((await api().request('PATCH', '/v1/vendor/addresses/304', { body: validAddress() })).status).toBe(409);
		const item = await api().request('POST', '/v1/consignments/cons_12345/items', { body: { items: [validItem({ address_id: '304' })] } });
		expect(item.status).toBe(207);
		expect(item.body.error[0].message).toMatch(/address_id is invalid.*inactive/);
	});

	it('answers 409 for an already inactive address and 404 for an unknown one', async () => {
		expect((await api().request('DELETE', '/v1/vendor/addresses/303')).status).toBe(409);
		expect((await api().request('DELETE', '/v1/vendor/addresses/9999')).status).toBe(404);
	});
});
