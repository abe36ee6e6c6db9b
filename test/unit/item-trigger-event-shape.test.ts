// The Item Trigger's output item per node version (nodes/ConsignmentVendorItemTrigger/eventShape.ts): version 2 gives
// both listings' records one shape (price in cents, quantity or null), version 1 keeps them as listed.
import { eventOutput } from '../../nodes/ConsignmentVendorItemTrigger/eventShape';
import type { ItemEvent } from '../../nodes/ConsignmentVendorItemTrigger/statusDiff';

const nonApproved: ItemEvent = {
	event: 'status_changed',
	id: '7',
	previousStatus: 'pending',
	status: 'rejected',
	record: { item_id: 7, vendor_sku: 'A-7', quantity: 3, item_status: 'Rejected', price: { currency_code: 'USD', price: '1299.99' } },
};
const approved: ItemEvent = {
	event: 'status_changed',
	id: '8',
	previousStatus: 'pending',
	status: 'approved',
	record: { id: 80, item_id: 8, vendor_sku: 'A-8', price: 71700 },
};

describe('version 2: one shape', () => {
	it('a non-approved record: price in cents from the listing\'s dollars, its object kept as listed_price, quantity as listed', () => {
		expect(eventOutput(nonApproved, 2).json).toEqual({
			item_id: 7,
			vendor_sku: 'A-7',
			item_status: 'Rejected',
			price: 129999,
			quantity: 3,
			listed_price: { currency_code: 'USD', price: '1299.99' },
			event: 'status_changed',
			previous_status: 'pending',
			status: 'rejected',
		});
	});

	it('an approved record: price in cents as listed, quantity null (the listing does not show it)', () => {
		expect(eventOutput(approved, 2).json).toEqual({
			id: 80,
			item_id: 8,
			vendor_sku: 'A-8',
			price: 71700,
			quantity: null,
			event: 'status_changed',
			previous_status: 'pending',
			status: 'approved',
		});
	});

	it.each([
		[{ currency_code: 'USD', price: '0.29' }, 29],
		[{ currency_code: 'USD', price: '5' }, 500],
		[{ currency_code: 'USD', price: 19.99 }, 1999],
		[{ currency_code: 'USD', price: 'n/a' }, null],
		[{ currency_code: 'USD' }, null],
		['not a price', null],
		[undefined, null],
	])('the listing\'s price %p is %p cents', (price, cents) => {
		const json = eventOutput({ ...nonApproved, record: { item_id: 7, price } }, 2).json;
		expect(json.price).toBe(cents);
	});
});

describe('version 1: as listed', () => {
	it('keeps both records exactly as their listings gave them', () => {
		expect(eventOutput(nonApproved, 1).json).toEqual({ ...nonApproved.record, event: 'status_changed', previous_status: 'pending', status: 'rejected' });
		expect(eventOutput(approved, 1).json).toEqual({ ...approved.record, event: 'status_changed', previous_status: 'pending', status: 'approved' });
	});
});

describe('a change from a status no poll read', () => {
	it('says so with previous_status_unknown (both versions); other events do not carry the field', () => {
		const unknown: ItemEvent = { ...approved, previousStatus: null, previousStatusUnknown: true };
		for (const version of [1, 2]) {
			expect(eventOutput(unknown, version).json).toMatchObject({ event: 'status_changed', previous_status: null, previous_status_unknown: true });
			expect('previous_status_unknown' in eventOutput(approved, version).json).toBe(false);
		}
	});
});
