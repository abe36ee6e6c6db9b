// parseAddressInput: every address rule of the contract, accepted and refused, with the item index and field named.
import { InputValidationError, parseAddressInput } from '../../nodes/ConsignmentVendor/shared/schemas';
import { validAddress } from '../integration/address-input';

// The phone in its (###) ###-#### form: accepted and sent unchanged.
const valid = validAddress({ phone: '(212) 555-0101' });

function issuesOf(raw: unknown, itemIndex = 3): InputValidationError {
	let caught: unknown;
	try {
		parseAddressInput(raw, itemIndex);
	} catch (error) {
		caught = error;
	}
	expect(caught).toBeInstanceOf(InputValidationError);
	return caught as InputValidationError;
}

function refused(change: Record<string, unknown>, field: string, message: RegExp, itemIndex = 3) {
	const error = issuesOf({ ...valid, ...change }, itemIndex);
	expect(error.itemIndex).toBe(itemIndex);
	expect(error.issues.map((issue) => issue.field)).toContain(field);
	expect(error.message).toMatch(new RegExp(`^Item index ${itemIndex}: `));
	expect(error.message).toContain(field);
	expect(error.message).toMatch(message);
}

describe('parseAddressInput accepts', () => {
	it('a complete US address and returns exactly the nine request fields, all strings', () => {
		expect(parseAddressInput({ ...valid, email: 'x@example.com', name: 'ignored' }, 0)).toEqual(valid);
	});

	it('address2 left out or empty, sent as ""', () => {
		const withoutLine2: Record<string, unknown> = { ...valid };
		delete withoutLine2.address2;
		expect(parseAddressInput(withoutLine2, 0).address2).toBe('');
		expect(parseAddressInput({ ...valid, address2: '' }, 0).address2).toBe('');
	});

	it.each(['US', 'USA', 'us', ' usa '])('country %p (upper-cased)', (country) => {
		expect(parseAddressInput({ ...valid, country_iso: country }, 0).country_iso).toBe(country.trim().toUpperCase());
	});

	it.each([
		['PR', 'PR'],
		['PRI', 'PR'],
		['GU', 'GU'],
		['GUM', 'GU'],
		['VI', 'VI'],
		['VIR', 'VI'],
		['AS', 'AS'],
		['ASM', 'AS'],
		['MP', 'MP'],
		['MNP', 'MP'],
	])('territory %p when city equals state_abbr', (country, same) => {
		const address = parseAddressInput({ ...valid, country_iso: country, city: same, state_abbr: same }, 0);
		expect(address).toMatchObject({ country_iso: country, city: same, state_abbr: same });
	});

	it.each([
		['US', 'PR'],
		['USA', 'GU'],
		['us', 'vi'],
	])('country %p with a territory state_abbr %p as a territory address (city = state)', (country, state) => {
		const address = parseAddressInput({ ...valid, country_iso: country, city: state, state_abbr: state, zipcode: '00901' }, 0);
		expect(address).toMatchObject({ country_iso: country.toUpperCase(), city: state.toUpperCase(), state_abbr: state.toUpperCase() });
	});

	it('a territory whose city and state_abbr differ only in case, sent as the same value', () => {
		const address = parseAddressInput({ ...valid, country_iso: 'PRI', city: 'pr', state_abbr: 'Pr', zipcode: '00901' }, 0);
		expect(address).toMatchObject({ city: 'PR', state_abbr: 'PR' });
	});

	it.each(['10001', '90001-1234', '00901'])('zip %p', (zipcode) => {
		expect(parseAddressInput({ ...valid, zipcode }, 0).zipcode).toBe(zipcode);
	});

	it.each(['(212) 555-0101', '212-555-0101', '2125550101'])('phone %p, unchanged', (phone) => {
		expect(parseAddressInput({ ...valid, phone }, 0).phone).toBe(phone);
	});

	it('a numeric zip or phone from a spreadsheet, as a string', () => {
		const address = parseAddressInput({ ...valid, zipcode: 10001, phone: 2125550101 }, 0);
		expect(address.zipcode).toBe('10001');
		expect(address.phone).toBe('2125550101');
	});

	it('a lower-case US state, sent upper-case', () => {
		expect(parseAddressInput({ ...valid, state_abbr: 'ny' }, 0).state_abbr).toBe('NY');
	});
});

describe('parseAddressInput refuses', () => {
	it.each(['first_name', 'last_name', 'address1', 'city', 'state_abbr', 'zipcode', 'country_iso', 'phone'])(
		'a missing or blank %s',
		(field) => {
			refused({ [field]: undefined }, field, /is required/);
			refused({ [field]: '   ' }, field, /is required/);
		},
	);

	it.each(['CA', 'CAN', 'MX', 'GB', 'DE', 'XX', 'UM', 'toString'])('country %p (US and territories only)', (country) => {
		refused({ country_iso: country }, 'country_iso', /United States or a US territory/);
	});

	it('a territory whose city differs from its state_abbr', () => {
		refused({ country_iso: 'PR', city: 'San Juan', state_abbr: 'PR' }, 'city', /must equal state_abbr.*"San Juan".*"PR"/);
		refused({ country_iso: 'GUM', city: 'GU', state_abbr: 'Guam' }, 'city', /must equal state_abbr/);
	});

	it('a territory whose state_abbr is not the territory\'s abbreviation, even when city equals it', () => {
		refused({ country_iso: 'PR', city: 'San Juan', state_abbr: 'San Juan' }, 'state_abbr', /must be PR, the standard abbreviation of the territory.*got "San Juan"/);
		refused({ country_iso: 'GUM', city: 'PR', state_abbr: 'PR' }, 'state_abbr', /must be GU/);
	});

	it('country US with a territory state_abbr whose city differs', () => {
		refused({ country_iso: 'US', city: 'San Juan', state_abbr: 'PR' }, 'city', /must equal state_abbr for a US territory \(PR\)/);
	});

	it('a US state that is not a state abbreviation', () => {
		refused({ state_abbr: 'New York' }, 'state_abbr', /two-letter US state abbreviation/);
		refused({ state_abbr: 'ZZ' }, 'state_abbr', /got "ZZ"/);
	});

	it.each(['1000', '100011', '10001-123', '10001 1234', '10 001', ' 1000 1', '10001-', 'ABCDE', '10001--1234', '100011234'])(
		'zip %p',
		(zipcode) => refused({ zipcode }, 'zipcode', /##### or #####-####/),
	);

	it.each([
		'+1 212-555-0101',
		'+12125550101',
		'1-212-555-0101',
		'212 555 0101',
		'(212) 555 0101',
		'212-555 0101',
		'555-0101',
		'5550101',
		'(212)-555-0101',
		'(212)555-0101',
		'212.555.0101',
		'21255501011',
	])('phone %p', (phone) => refused({ phone }, 'phone', /10-digit US number/));

	it('names the item index given', () => {
		refused({ zipcode: '1' }, 'zipcode', /got "1"/, 0);
		refused({ zipcode: '1' }, 'zipcode', /got "1"/, 41);
	});

	it('reports every invalid field at once', () => {
		const error = issuesOf({ ...valid, zipcode: '10 001', phone: '+1 212-555-0101', country_iso: 'CA' });
		expect(error.issues.map((issue) => issue.field).sort()).toEqual(['country_iso', 'phone', 'zipcode']);
	});

	it('input that is not an object', () => {
		expect(issuesOf(null).message).toMatch(/^Item index 3: /);
		expect(issuesOf('Ada, 12 W 31st St').message).toMatch(/^Item index 3: /);
	});
});
