// Item inputs: every creation rule of the contract, accepted and refused, with the item index and field named;
// the body they produce has the contract's JSON types (integer cents, string address_id, arrays, objects).
import {
	InputValidationError,
	parseApprovedItemUpdateInput,
	parseConsignmentId,
	parseItemCreationInput,
	parseItemUpdateInput,
	type ItemInputOptions,
} from '../../nodes/ConsignmentVendor/shared/schemas';
import { validItemBody } from '../integration/item-input';

// An http (not https) image URL, and msrp and attributes as text: the forms a user's data arrives in.
const image = { front: 'https://img.example.com/front.jpg', back: 'http://img.example.com/back.jpg' };
const valid = validItemBody('BAG-0001', { upc: '', image, msrp: '250000', taxon_specific_attributes: '{"color": "Black", "material": ["Leather"]}' });
const cents: ItemInputOptions = { priceUnit: 'cents' };
const dollars: ItemInputOptions = { priceUnit: 'dollars' };

function failureOf(run: () => unknown): InputValidationError {
	let caught: unknown;
	try {
		run();
	} catch (error) {
		caught = error;
	}
	expect(caught).toBeInstanceOf(InputValidationError);
	return caught as InputValidationError;
}

function refused(change: Record<string, unknown>, field: string, message: RegExp, options = cents, itemIndex = 7) {
	const error = failureOf(() => parseItemCreationInput({ ...valid, ...change }, itemIndex, options));
	expect(error.itemIndex).toBe(itemIndex);
	expect(error.issues.map((issue) => issue.field)).toContain(field);
	expect(error.message).toMatch(new RegExp(`^Item index ${itemIndex}: .*${field.replace('.', '\\.')} `));
	expect(error.message).toMatch(message);
}

describe('parseItemCreationInput accepts', () => {
	it('a complete item and returns the contract body with its JSON types', () => {
		const body = parseItemCreationInput({ ...valid, address_id: 301, designer_specific_attributes: { line: 'Classic' } }, 0, cents);
		expect(body).toEqual(validItemBody('BAG-0001', { image, designer_specific_attributes: { line: 'Classic' }, address_id: '301' }));
		expect(typeof body.address_id).toBe('string');
		expect(Number.isInteger(body.msrp) && Number.isInteger(body.price)).toBe(true);
	});

	it('leaves out optional fields that were not given (upc, address_id, designer_specific_attributes)', () => {
		const body = parseItemCreationInput({ ...valid, designer_specific_attributes: '', address_id: '' }, 0, cents);
		expect(Object.keys(body)).not.toEqual(expect.arrayContaining(['upc']));
		expect(body).not.toHaveProperty('upc');
		expect(body).not.toHaveProperty('address_id');
		expect(body).not.toHaveProperty('designer_specific_attributes');
	});

	it('a watch with its UPC', () => {
		const body = parseItemCreationInput({ ...valid, taxon_permalink: 'watches/strap', upc: '012345678905' }, 0, cents);
		expect(body.upc).toBe('012345678905');
	});

	it('prices in dollars, converted exactly to cents', () => {
		const body = parseItemCreationInput({ ...valid, msrp: '2500', price: 19.99 }, 0, dollars);
		expect(body).toMatchObject({ msrp: 250000, price: 1999 });
		expect(parseItemCreationInput({ ...valid, msrp: '12.34', price: '0.29' }, 0, dollars)).toMatchObject({ msrp: 1234, price: 29 });
	});

	it('an empty attribute object, and attributes given as an object rather than JSON text', () => {
		expect(parseItemCreationInput({ ...valid, taxon_specific_attributes: '{}' }, 0, cents).taxon_specific_attributes).toEqual({});
		expect(parseItemCreationInput({ ...valid, taxon_specific_attributes: { size: 'M' } }, 0, cents).taxon_specific_attributes).toEqual({ size: 'M' });
	});

	it('values as a spreadsheet gives them: "true", "2", "Men, women", trimmed text', () => {
		const body = parseItemCreationInput(
			{ ...valid, vendor_sku: '  BAG-0002 ', with_tags: 'false', quantity: '2', gender: 'Men, women' },
			0,
			cents,
		);
		expect(body).toMatchObject({ vendor_sku: 'BAG-0002', with_tags: false, quantity: 2, gender: ['Men', 'Women'] });
	});

	it('any category path as typed: the service, not the node, knows which taxons exist and whether case matters', () => {
		expect(parseItemCreationInput({ ...valid, taxon_permalink: 'Women/Handbags' }, 0, cents).taxon_permalink).toBe('Women/Handbags');
		expect(parseItemCreationInput({ ...valid, taxon_permalink: ' women ' }, 0, cents).taxon_permalink).toBe('women');
	});

	it('both genders, repeats dropped', () => {
		expect(parseItemCreationInput({ ...valid, gender: ['Women', 'Men', 'Women'] }, 0, cents).gender).toEqual(['Women', 'Men']);
	});
});

describe('parseItemCreationInput refuses', () => {
	it.each(['vendor_sku', 'taxon_permalink', 'condition', 'designer'])('a missing or blank %s', (field) => {
		refused({ [field]: undefined }, field, /is required/);
		refused({ [field]: '  ' }, field, /is required/);
	});

	it.each(['with_tags', 'image', 'quantity', 'msrp', 'price', 'gender'])('a missing %s', (field) => {
		refused({ [field]: undefined }, field, /is required/);
	});

	it('a watch without UPC', () => {
		refused({ taxon_permalink: 'watches/bracelet', upc: '' }, 'upc', /required for watches.*watches\/bracelet/);
	});

	it('a watch without UPC, whatever the case of its taxon', () => {
		refused({ taxon_permalink: 'Watches/Strap', upc: '' }, 'upc', /required for watches/);
	});

	it('a watch without UPC is reported together with the other invalid fields', () => {
		const error = failureOf(() => parseItemCreationInput({ ...valid, taxon_permalink: 'watches/strap', upc: '', price: 0, quantity: 'x' }, 1, cents));
		expect(error.issues.map((issue) => issue.field).sort()).toEqual(['price', 'quantity', 'upc']);
	});

	it.each(['/women/handbags', 'women/handbags/', 'women//handbags', 'women handbags/totes', 'women\\handbags'])(
		'taxon_permalink %p (not a category path)',
		(taxon) => refused({ taxon_permalink: taxon }, 'taxon_permalink', /category path/),
	);

	it.each([
		['ftp://img.example.com/a.jpg'],
		['/images/a.jpg'],
		['img.example.com/a.jpg'],
		['javascript:alert(1)'],
		[''],
	])('image.front %p', (url) => {
		refused({ image: { ...image, front: url } }, 'image.front', url ? /absolute http\(s\) URL/ : /is required/);
	});

	it('image.back, and an image that is not {front, back}', () => {
		refused({ image: { ...image, back: 'not a url' } }, 'image.back', /absolute http\(s\) URL.*got "not a url"/);
		refused({ image: 'https://img.example.com/a.jpg' }, 'image', /object with front and back/);
	});

	it.each([[0], [-1], [1.5], ['two'], ['1.5']])('quantity %p', (quantity) => {
		refused({ quantity }, 'quantity', /whole number of at least 1/);
	});

	it.each([[19.99], ['1299.50'], ['-100'], [0], ['abc']])('price %p in cents', (price) => {
		refused({ price }, 'price', /whole number of cents|must not be negative|greater than 0/);
	});

	it('msrp that is not whole cents, with the hint to switch to dollars', () => {
		refused({ msrp: 19.99 }, 'msrp', /whole number of cents.*Price Unit to Dollars/);
	});

	it.each([['12.345'], ['1,299.00'], ['$'], [0.1 + 0.2]])('price %p in dollars', (price) => {
		refused({ price }, 'price', /more than 2 decimals|amount in dollars/, dollars);
	});

	it.each([[[]], [''], [['Unisex']], [['Men', 'Kids']], [[null]]])('gender %p', (gender) => {
		refused({ gender }, 'gender', /Men, Women or both|only contain Men and Women|list of Men/);
	});

	it.each([
		['[1, 2]', /JSON object/],
		['"text"', /JSON object/],
		['42', /JSON object/],
		['null', /JSON object/],
		['{"color": ', /valid JSON/],
		[[{ color: 'Black' }], /JSON object/],
	])('taxon_specific_attributes %p', (attributes, message) => {
		refused({ taxon_specific_attributes: attributes }, 'taxon_specific_attributes', message);
	});

	it('designer_specific_attributes that is not an object', () => {
		refused({ designer_specific_attributes: '["Classic"]' }, 'designer_specific_attributes', /JSON object.*an array/);
	});

	it('with_tags that is not a boolean', () => {
		refused({ with_tags: 'yes' }, 'with_tags', /true or false, got "yes"/);
	});

	it('lists every invalid field, and input that is not an object', () => {
		const error = failureOf(() => parseItemCreationInput({ ...valid, quantity: 0, price: 'x', gender: [] }, 2, cents));
		expect(error.issues.map((issue) => issue.field).sort()).toEqual(['gender', 'price', 'quantity']);
		expect(failureOf(() => parseItemCreationInput(null, 4, cents)).message).toMatch(/^Item index 4: .*object of item fields/);
	});
});

describe('parseItemUpdateInput', () => {
	it('needs the same fields as creation', () => {
		const error = failureOf(() => parseItemUpdateInput({ vendor_sku: 'BAG-0001', quantity: 1 }, 5, cents));
		expect(error.message).toMatch(/^Item index 5: /);
		expect(error.issues.map((issue) => issue.field)).toEqual(expect.arrayContaining(['taxon_permalink', 'designer', 'image', 'price']));
	});

	it('allows quantity 0 (an item can be sold out), but not below', () => {
		expect(parseItemUpdateInput({ ...valid, quantity: 0 }, 0, cents).quantity).toBe(0);
		expect(failureOf(() => parseItemUpdateInput({ ...valid, quantity: -1 }, 0, cents)).message).toMatch(/quantity must be a whole number, 0 or more/);
	});
});

describe('parseApprovedItemUpdateInput', () => {
	it('keeps only address_id (as a string) and quantity', () => {
		expect(parseApprovedItemUpdateInput({ address_id: 304, quantity: '1' }, 0)).toEqual({ quantity: 1, address_id: '304' });
		expect(parseApprovedItemUpdateInput({ quantity: 0 }, 0)).toEqual({ quantity: 0 });
		expect(parseApprovedItemUpdateInput({ address_id: '304', quantity: '' }, 0)).toEqual({ address_id: '304' });
	});

	it('needs at least one of them, and a whole quantity', () => {
		expect(failureOf(() => parseApprovedItemUpdateInput({ address_id: '', quantity: undefined }, 6)).message).toMatch(
			/^Item index 6: address_id or quantity must be given/,
		);
		expect(failureOf(() => parseApprovedItemUpdateInput({ quantity: 1.5 }, 6)).message).toMatch(/quantity/);
	});
});

describe('parseConsignmentId', () => {
	it('returns the id as a string', () => {
		expect(parseConsignmentId('cons_12345', 0)).toBe('cons_12345');
		expect(parseConsignmentId(1001, 0)).toBe('1001');
	});

	it.each([[''], ['  '], ['cons 1'], ['..'], [undefined]])('refuses %p', (id) => {
		expect(failureOf(() => parseConsignmentId(id, 9)).message).toMatch(/^Item index 9: consignment_id /);
	});
});
