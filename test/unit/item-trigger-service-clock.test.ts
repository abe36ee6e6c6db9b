// When a read began, on the service's clock (nodes/ConsignmentVendorItemTrigger/serviceClock.ts): what the trigger
// compares the items' updated_at / created_at with.
import {
	N8N_CLOCK_MARGIN_MS,
	SERVICE_CLOCK_MARGIN_MS,
	readBeganOnServiceClock,
	timeOf,
} from '../../nodes/ConsignmentVendorItemTrigger/serviceClock';

const n8nNow = Date.parse('2026-11-27T12:00:00Z');

describe('the moment a read began, on the service clock', () => {
	it("is the service's Date header minus its margin, however far n8n's clock is from it", () => {
		const serviceDate = 'Fri, 27 Nov 2026 10:00:00 GMT';
		expect(readBeganOnServiceClock({ date: serviceDate }, n8nNow)).toBe(Date.parse(serviceDate) - SERVICE_CLOCK_MARGIN_MS);
		expect(readBeganOnServiceClock({ Date: [serviceDate] }, n8nNow)).toBe(Date.parse(serviceDate) - SERVICE_CLOCK_MARGIN_MS);
	});

	it("without a readable Date header, is n8n's clock minus a wider margin", () => {
		expect(readBeganOnServiceClock({}, n8nNow)).toBe(n8nNow - N8N_CLOCK_MARGIN_MS);
		expect(readBeganOnServiceClock({ date: 'yesterday' }, n8nNow)).toBe(n8nNow - N8N_CLOCK_MARGIN_MS);
		expect(readBeganOnServiceClock(undefined, n8nNow)).toBe(n8nNow - N8N_CLOCK_MARGIN_MS);
		expect(N8N_CLOCK_MARGIN_MS).toBeGreaterThan(SERVICE_CLOCK_MARGIN_MS);
	});

	it('reads ISO 8601 timestamps; anything else is no time', () => {
		expect(timeOf('2026-11-27T10:00:00.123Z')).toBe(Date.parse('2026-11-27T10:00:00.123Z'));
		expect([timeOf(''), timeOf('soon'), timeOf(12), timeOf(null)]).toEqual([undefined, undefined, undefined, undefined]);
	});
});
