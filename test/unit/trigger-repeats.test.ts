// Ignore Repeated Deliveries (nodes/ConsignmentVendorTrigger/delivery/repeatedDeliveries.ts): what counts as the same
// event, the window, and the bounded memory in static data (oldest forgotten first).
import type { IDataObject } from 'n8n-workflow';

import { normaliseEvent } from '../../nodes/ConsignmentVendorTrigger/delivery/events';
import { deliveryIdentity, isRepeatedDelivery, MAX_REMEMBERED } from '../../nodes/ConsignmentVendorTrigger/delivery/repeatedDeliveries';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);

const identityOf = (body: IDataObject) => deliveryIdentity(normaliseEvent(body), Buffer.from(JSON.stringify(body)), body);
const purchase = (data: IDataObject) => ({ body: { operation: 'item_purchased', data: { vendor_sku: 'V-1', sku: 'TRR-1', timestamp: '2026-11-01T10:00:00Z', ...data } } });

let scopeCounter = 0;
/** A fresh trigger (own process memory) with its own static data. */
function trigger() {
	const staticData: IDataObject = {};
	const scope = `test-scope-${++scopeCounter}`;
	return {
		staticData,
		seen: (identity: string, now: number, windowHours = 24) => isRepeatedDelivery({ staticData, persist: true, scope, identity, windowHours, now }),
	};
}

describe('deliveryIdentity', () => {
	it('is the same for the same event in another envelope, key order or with other envelope metadata', () => {
		const first = identityOf(purchase({}));
		expect(identityOf({ operation: 'item_purchased', data: { timestamp: '2026-11-01T10:00:00Z', sku: 'TRR-1', vendor_sku: 'V-1' } })).toBe(first);
		expect(identityOf({ type: 'notification_event', properties: { operation: 'item_purchased', data: purchase({}).body.data }, meta: { topic: 'x' } })).toBe(first);
	});

	it('differs when the operation, a key field, the errors or the timestamp differ', () => {
		const first = identityOf(purchase({}));
		expect(identityOf({ body: { operation: 'successful_item_upload', data: purchase({}).body.data } })).not.toBe(first);
		expect(identityOf(purchase({ sku: 'TRR-2' }))).not.toBe(first);
		expect(identityOf(purchase({ timestamp: '2026-11-01T10:00:01Z' }))).not.toBe(first);
		const failed = (errors: string[]) => identityOf({ body: { operation: 'address_creation', data: { id: null, errors, timestamp: 't1' } } });
		expect(failed(['zipcode is invalid'])).not.toBe(failed(['phone is invalid']));
	});

	it('without a timestamp, is the raw body: only byte-identical repeats match', () => {
		const body = { body: { operation: 'address_creation', data: { id: 7, errors: [] } } };
		expect(deliveryIdentity(normaliseEvent(body), Buffer.from('{"a":1}'), body)).toBe(deliveryIdentity(normaliseEvent(body), Buffer.from('{"a":1}'), body));
		expect(deliveryIdentity(normaliseEvent(body), Buffer.from('{"a":1}'), body)).not.toBe(deliveryIdentity(normaliseEvent(body), Buffer.from('{"a": 1}'), body));
	});
});

describe('isRepeatedDelivery', () => {
	it('is false the first time, true for a repeat within the window, false again after it', () => {
		const t = trigger();
		expect(t.seen('e:a', T0)).toBe(false);
		expect(t.seen('e:a', T0 + 23 * HOUR)).toBe(true);
		expect(t.seen('e:a', T0 + 24 * HOUR + 1)).toBe(false);
	});

	it('counts the window from the first delivery: steady repeats do not keep an event alive', () => {
		const t = trigger();
		t.seen('e:a', T0);
		t.seen('e:a', T0 + 20 * HOUR);
		expect(t.seen('e:a', T0 + 25 * HOUR)).toBe(false);
	});

	it('honours a shorter window', () => {
		const t = trigger();
		t.seen('e:a', T0, 1);
		expect(t.seen('e:a', T0 + 2 * HOUR, 1)).toBe(false);
	});

	it('is found from static data alone (another process, or after a restart)', () => {
		const first = trigger();
		first.seen('e:a', T0);
		const otherProcess = trigger();
		Object.assign(otherProcess.staticData, JSON.parse(JSON.stringify(first.staticData)));
		expect(otherProcess.seen('e:a', T0 + HOUR)).toBe(true);
	});

	it('keeps at most MAX_REMEMBERED entries in static data, forgetting the oldest first', () => {
		const t = trigger();
		for (let i = 0; i <= MAX_REMEMBERED; i++) t.seen(`e:${i}`, T0 + i);
		const stored = t.staticData.deliveries as Record<string, number>;
		expect(Object.keys(stored)).toHaveLength(MAX_REMEMBERED);
		expect(stored['e:0']).toBeUndefined();
		expect(stored['e:1']).toBe(T0 + 1);
		expect(stored[`e:${MAX_REMEMBERED}`]).toBe(T0 + MAX_REMEMBERED);
		// The forgotten one is new again to a process that only has the static data.
		const fresh = trigger();
		Object.assign(fresh.staticData, JSON.parse(JSON.stringify(t.staticData)));
		expect(fresh.seen('e:1', T0 + MAX_REMEMBERED + 1)).toBe(true);
		expect(fresh.seen('e:0', T0 + MAX_REMEMBERED + 1)).toBe(false);
	});

	it('drops expired entries when it writes', () => {
		const t = trigger();
		t.seen('e:old', T0);
		t.seen('e:new', T0 + 25 * HOUR);
		expect(Object.keys(t.staticData.deliveries as object)).toEqual(['e:new']);
	});
});

describe('a static data copy n8n must not save (persist false)', () => {
	const check = (staticData: IDataObject, scope: string, identity: string) =>
		isRepeatedDelivery({ staticData, persist: false, scope, identity, windowHours: 24, now: T0 });

	it('is not written; this process still recognises the repeat', () => {
		const scope = `test-scope-${++scopeCounter}`;
		const staticData: IDataObject = {};
		expect(check(staticData, scope, 'e:1')).toBe(false);
		expect(staticData).toEqual({});
		expect(check({}, scope, 'e:1')).toBe(true);
	});

	it('is still read: an event it remembers is a repeat', () => {
		expect(check({ deliveries: { 'e:9': T0 - HOUR } }, `test-scope-${++scopeCounter}`, 'e:9')).toBe(true);
	});
});
