/**
 * Webhook signature check. The service signs every delivery when the vendor created a signing secret:
 * header `X-TRR-Signature` = lowercase hex HMAC-SHA256 of the raw request body, keyed with the secret.
 */
import { createHmac, timingSafeEqual } from 'crypto';

export const SIGNATURE_HEADER = 'x-trr-signature';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** The header's value as one string; a repeated header is not a valid signature. */
function singleHeaderValue(header: string | string[] | undefined): string | undefined {
	if (Array.isArray(header)) return header.length === 1 ? header[0] : undefined;
	return header;
}

/**
 * True only when `header` carries the HMAC of exactly these bytes. The comparison runs over the
 * decoded 32-byte digests with `timingSafeEqual`, so its time does not depend on where they differ.
 * The header is matched case-insensitively: hex case carries no information.
 */
export function isValidSignature(
	rawBody: Buffer,
	header: string | string[] | undefined,
	secret: string,
): boolean {
	const value = singleHeaderValue(header)?.trim();
	if (value === undefined || !HEX_SHA256.test(value)) return false;
	const expected = createHmac('sha256', secret).update(rawBody).digest();
	const received = Buffer.from(value, 'hex');
	return received.length === expected.length && timingSafeEqual(received, expected);
}
