// Webhook payload normalisation and the event filter (nodes/ConsignmentVendorTrigger/delivery/events.ts).
import { isEventSelected, normaliseEvent } from '../../nodes/ConsignmentVendorTrigger/delivery/events';

const uploadData = { vendor_sku: 'SKU-1', timestamp: '2024-05-01T10:00:00Z', errors: [], consignment_id: 123 };

describe('envelopes', () => {
	it('reads {body: {operation, data}}', () => {
		expect(normaliseEvent({ body: { operation: 'successful_item_upload', data: uploadData } })).toEqual({
			event: 'successful_item_upload',
			envelope: 'body',
			fields: { vendor_sku: 'SKU-1', consignment_id: '123', errors: [], timestamp: '2024-05-01T10:00:00Z' },
		});
	});

	it('reads the notification_event form from properties, not from its top-level data', () => {
		const body = {
			type: 'notification_event',
			data: { event_type: 'vendor_address_upsert_response', id: 'should-not-win' },
			properties: { operation: 'address_creation', data: { id: 77, errors: [], timestamp: '2024-05-01T10:00:00Z' } },
			meta: { topic: 'vendor_address_upsert_response' },
		};
		expect(normaliseEvent(body)).toEqual({
			event: 'address_creation',
			envelope: 'notification_event',
			fields: { id: '77', errors: [], timestamp: '2024-05-01T10:00:00Z' },
		});
	});

	it('falls back to the top-level data of a notification_event without properties.data', () => {
		const result = normaliseEvent({
			type: 'notification_event',
			data: { event_type: 'x', id: 5 },
			properties: { operation: 'address_creation' },
		});
		expect(result.event).toBe('address_creation');
		expect(result.fields).toEqual({ id: '5', event_type: 'x' });
	});

	it('reads bare {operation, data}', () => {
		const result = normaliseEvent({ operation: 'item_purchased', data: { vendor_sku: 'A', sku: 'P-9', pdf_url: 'https://l/x.pdf' } });
		expect(result).toEqual({
			event: 'item_purchased',
			envelope: 'bare',
			fields: { vendor_sku: 'A', sku: 'P-9', pdf_url: 'https://l/x.pdf' },
		});
	});

	it('reports the item-created notice with item_id as successful_item_upload, whatever its wrapping', () => {
		for (const body of [
			{ item_id: 4711, vendor_sku: 'N-1' },
			{ data: { item_id: 4711, vendor_sku: 'N-1' } },
			{ body: { data: { item_id: 4711, vendor_sku: 'N-1' } } },
		]) {
			const result = normaliseEvent(body);
			expect(result.event).toBe('successful_item_upload');
			expect(result.fields).toMatchObject({ item_id: '4711', vendor_sku: 'N-1' });
		}
	});

	it('keeps the operation name the service sent, even an undocumented one', () => {
		expect(normaliseEvent({ operation: 'order_shipped', data: { sku: 7 } })).toMatchObject({
			event: 'order_shipped',
			fields: { sku: '7' },
		});
	});

	it('calls a payload without an operation or item_id unknown and keeps its fields', () => {
		expect(normaliseEvent({ hello: 'world', vendor_sku: 'Z' })).toEqual({
			event: 'unknown',
			envelope: 'flat',
			fields: { vendor_sku: 'Z', hello: 'world' },
		});
	});
});

describe('documented events', () => {
	it('invalid_item_upload: errors as strings, a null consignment_id kept as null', () => {
		const { event, fields } = normaliseEvent({
			body: {
				operation: 'invalid_item_upload',
				data: { vendor_sku: 'B', timestamp: 't', errors: ['designer is invalid', { message: 'price is invalid' }], consignment_id: null },
			},
		});
		expect(event).toBe('invalid_item_upload');
		expect(fields).toEqual({ vendor_sku: 'B', timestamp: 't', errors: ['designer is invalid', 'price is invalid'], consignment_id: null });
	});

	it('item_purchased: vendor_sku, the platform sku and pdf_url at top level', () => {
		const { fields } = normaliseEvent({
			body: { operation: 'item_purchased', data: { vendor_sku: 'C', timestamp: 't', sku: 'TRR-1', pdf_url: 'https://labels/1.pdf' } },
		});
		expect(fields).toEqual({ vendor_sku: 'C', timestamp: 't', sku: 'TRR-1', pdf_url: 'https://labels/1.pdf' });
	});

	it('address_creation on error: id null, errors listed', () => {
		const { fields } = normaliseEvent({ operation: 'address_creation', data: { timestamp: 't', id: null, errors: 'zipcode is invalid' } });
		expect(fields).toEqual({ timestamp: 't', id: null, errors: ['zipcode is invalid'] });
	});
});

describe('field normalisation', () => {
	it('outputs the known fields first, in a fixed order, then the rest', () => {
		const { fields } = normaliseEvent({ operation: 'x', data: { extra: 1, pdf_url: 'u', vendor_sku: 'v' } });
		expect(Object.keys(fields)).toEqual(['vendor_sku', 'pdf_url', 'extra']);
	});

	it('passes a field of an unexpected type on unchanged instead of dropping it', () => {
		const { fields } = normaliseEvent({ operation: 'x', data: { vendor_sku: { nested: true }, errors: 5 } });
		expect(fields).toEqual({ vendor_sku: { nested: true }, errors: 5 });
	});

	it('never lets a data field named "event" replace the event name', () => {
		const { fields } = normaliseEvent({ operation: 'item_purchased', data: { event: 'forged' } });
		expect(fields).toEqual({});
	});
});

describe('isEventSelected', () => {
	it('"*" selects everything, including unknown events', () => {
		expect(isEventSelected('unknown', ['*'])).toBe(true);
		expect(isEventSelected('item_purchased', ['*'])).toBe(true);
	});

	it('a documented event must be selected by name', () => {
		expect(isEventSelected('item_purchased', ['item_purchased'])).toBe(true);
		expect(isEventSelected('address_creation', ['item_purchased'])).toBe(false);
		expect(isEventSelected('address_creation', ['other'])).toBe(false);
	});

	it('"other" selects undocumented and unknown events only', () => {
		expect(isEventSelected('order_shipped', ['other'])).toBe(true);
		expect(isEventSelected('unknown', ['other'])).toBe(true);
		expect(isEventSelected('unknown', ['item_purchased'])).toBe(false);
	});
});
