// X-TRR-Signature verification (nodes/ConsignmentVendorTrigger/delivery/signature.ts), checked against an HMAC
// computed here independently with node:crypto.
import { createHmac } from 'node:crypto';

import { isValidSignature } from '../../nodes/ConsignmentVendorTrigger/delivery/signature';

const SIGNING_CANARY = 'whsec_unit_test_value';
const body = Buffer.from('{"body":{"operation":"item_purchased","data":{"sku":"TRR-1"}}}');
const good = createHmac('sha256', SIGNING_CANARY).update(body).digest('hex');

describe('isValidSignature', () => {
	it('accepts the lowercase hex HMAC-SHA256 of the exact bytes', () => {
		expect(isValidSignature(body, good, SIGNING_CANARY)).toBe(true);
	});

	it('accepts surrounding whitespace and upper-case hex (same digest)', () => {
		expect(isValidSignature(body, ` ${good.toUpperCase()} `, SIGNING_CANARY)).toBe(true);
	});

	it('rejects a missing or empty header', () => {
		expect(isValidSignature(body, undefined, SIGNING_CANARY)).toBe(false);
		expect(isValidSignature(body, '', SIGNING_CANARY)).toBe(false);
	});

	it('rejects the signature of other bytes, even the same JSON re-serialised', () => {
		const reformatted = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 2));
		expect(isValidSignature(reformatted, good, SIGNING_CANARY)).toBe(false);
	});

	it('rejects a signature made with another secret', () => {
		const other = createHmac('sha256', 'another-secret').update(body).digest('hex');
		expect(isValidSignature(body, other, SIGNING_CANARY)).toBe(false);
	});

	it('rejects malformed values: wrong length, non-hex, a prefix, base64', () => {
		expect(isValidSignature(body, good.slice(0, 63), SIGNING_CANARY)).toBe(false);
		expect(isValidSignature(body, `${good}00`, SIGNING_CANARY)).toBe(false);
		expect(isValidSignature(body, `sha256=${good}`, SIGNING_CANARY)).toBe(false);
		expect(isValidSignature(body, `${good.slice(0, 63)}g`, SIGNING_CANARY)).toBe(false);
		const base64 = createHmac('sha256', SIGNING_CANARY).update(body).digest('base64');
		expect(isValidSignature(body, base64, SIGNING_CANARY)).toBe(false);
	});

	it('rejects a repeated header, even when one copy is right', () => {
		expect(isValidSignature(body, [good, good], SIGNING_CANARY)).toBe(false);
		expect(isValidSignature(body, [good], SIGNING_CANARY)).toBe(true);
	});
});
