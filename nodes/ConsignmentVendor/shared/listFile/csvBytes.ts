/**
 * CSV text written straight into a Buffer as UTF-8, for the export's hot path: a million records would otherwise
 * each build a line string out of ~25 pieces, only for it to be copied into a Buffer and dropped. Plain ASCII (ids,
 * SKUs, dates, most names) is copied byte by byte; other text goes through Buffer.write. The bytes are exactly the
 * text's UTF-8: only how they are produced differs.
 */

/** What a writer returns when `buf` lacks room before `end`: nothing it wrote counts, the caller takes a larger buffer. */
export const NO_ROOM = -1;
/** What `writePlainField` returns for a value that needs csvField's treatment (quotes, or not ASCII). */
export const NOT_PLAIN = -2;

/** The most UTF-8 bytes one UTF-16 code unit takes (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;

const QUOTE = 34;
const COMMA = 44;
const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;
const FIRST_NON_ASCII = 0x80;

/** `text` as UTF-8 at `pos` when there is room for any text of its length; its end, or NO_ROOM. */
export function writeText(text: string, buf: Buffer, pos: number, end: number): number {
	const length = text.length;
	if (end - pos < length * MAX_BYTES_PER_UNIT) return NO_ROOM;
	for (let i = 0; i < length; i++) {
		const code = text.charCodeAt(i);
		// Not ASCII: Buffer.write encodes the whole text from its start (the ASCII bytes come out the same).
		if (code >= FIRST_NON_ASCII) return pos + buf.write(text, pos);
		buf[pos + i] = code;
	}
	return pos + length;
}

/**
 * `text` as a CSV field at `pos` when it is plain ASCII without a quote, comma or line break (then the field is the
 * text itself); its end, NO_ROOM, or NOT_PLAIN (nothing written that counts) for the caller to quote it.
 */
export function writePlainField(text: string, buf: Buffer, pos: number, end: number): number {
	const length = text.length;
	if (end - pos < length) return NO_ROOM;
	for (let i = 0; i < length; i++) {
		const code = text.charCodeAt(i);
		if (code === QUOTE || code === COMMA || code === LINE_FEED || code === CARRIAGE_RETURN || code >= FIRST_NON_ASCII) return NOT_PLAIN;
		buf[pos + i] = code;
	}
	return pos + length;
}

/** One byte (a comma, CR, LF) at `pos`; its end, or NO_ROOM. */
export function writeByte(byte: number, buf: Buffer, pos: number, end: number): number {
	if (pos >= end) return NO_ROOM;
	buf[pos] = byte;
	return pos + 1;
}

const DIGIT_0 = 48;

/**
 * A whole number from 0 up to Number.MAX_SAFE_INTEGER as its decimal digits at `pos` (what String() gives it, with
 * no string built: ids, quantities and prices in cents are most of an export's cells); its end, or NO_ROOM.
 */
export function writeWholeNumber(value: number, buf: Buffer, pos: number, end: number): number {
	let digits = 1;
	for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
	if (end - pos < digits) return NO_ROOM;
	let rest = value;
	for (let at = pos + digits - 1; at >= pos; at--) {
		buf[at] = DIGIT_0 + (rest % 10);
		rest = Math.floor(rest / 10);
	}
	return pos + digits;
}
