// What Create or Update sends an approved item: its address, and its quantity only as a decrease from a quantity the
// service showed (the contract applies only decreases; its approved listing shows no quantity).
import { approvedItemPart } from '../../nodes/ConsignmentVendor/resources/item/upsert/rowDecision';
import type { ItemPayload } from '../../nodes/ConsignmentVendor/shared/schemas';

const payload = { vendor_sku: 'A-1', quantity: 3, price: 100, address_id: '304' } as unknown as ItemPayload;

describe('approvedItemPart', () => {
	it('quantity not shown by the service: not sent, listed as ignored, and quantityNotSent says why', () => {
		expect(approvedItemPart(payload, undefined)).toEqual({
			patch: { address_id: '304' },
			ignoredFields: ['quantity', 'price'],
			quantityNotSent: expect.stringMatching(/^quantity 3 was not sent: .*does not show this item's current quantity/),
		});
	});

	it('a decrease from a shown quantity is sent; an increase is not; the same quantity needs no change', () => {
		expect(approvedItemPart(payload, 5).patch).toEqual({ address_id: '304', quantity: 3 });
		const increase = approvedItemPart(payload, 2);
		expect(increase.patch).toEqual({ address_id: '304' });
		expect(increase.quantityNotSent).toMatch(/can only be decreased, and it is 2/);
		expect(approvedItemPart(payload, 3)).toEqual({ patch: { address_id: '304' }, ignoredFields: ['price'] });
	});
});
