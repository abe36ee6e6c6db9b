/**
 * Input validation, before any request is sent, for everything the node writes to the service:
 * item creation/update inputs and address create/update inputs. Every rule of the contract
 * (docs/vendor-api.md) that can be checked locally is checked here, so a bad row in a spreadsheet
 * costs no request and produces a message naming the item index, the field and the problem.
 *
 * zod 3 API only: n8n hands community packages its own zod, which is v3.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

export interface InputIssue {
	/** API field name (dot path for nested fields, e.g. `image.front`). */
	field: string;
	/** What is wrong, in words a user can act on. */
	message: string;
}

/**
 * Thrown by the `parse*Input` functions. `message` is complete on its own
 * (`Item index 2: zipcode must be ##### or #####-####, got "12 345"`), so callers may rethrow it
 * as is; n8n wraps a plain Error thrown from a preSend hook in a NodeOperationError, keeping the message.
 */
export class InputValidationError extends Error {
	constructor(
		readonly itemIndex: number,
		readonly issues: InputIssue[],
	) {
		super(formatIssues(itemIndex, issues));
		this.name = 'InputValidationError';
	}
}

export function formatIssues(itemIndex: number, issues: InputIssue[]): string {
	const details = issues.map((issue) => `${issue.field} ${issue.message}`).join('; ');
	return `Item index ${itemIndex}: ${details}`;
}

function toIssues(error: z.ZodError): InputIssue[] {
	return error.issues.map((issue) => ({
		field: issue.path.length ? issue.path.join('.') : 'input',
		message: issue.message,
	}));
}

function parseWith<Schema extends z.ZodTypeAny>(
	schema: Schema,
	raw: unknown,
	itemIndex: number,
): z.output<Schema> {
	const result = schema.safeParse(raw);
	if (!result.success) throw new InputValidationError(itemIndex, toIssues(result.error));
	return result.data;
}

function shown(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Shared field rules
// ---------------------------------------------------------------------------------------------

/** A string matching `pattern`; the message shows the offending value so a user can find it. */
function matching(pattern: RegExp, rule: string) {
	return z.string().refine(
		(value) => pattern.test(value),
		(value) => ({ message: `${rule}, got ${shown(value)}` }),
	);
}

/** A required text field: present, a string (numbers are accepted and stringified), not blank. */
const requiredText = z.preprocess(
	(value) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value),
	z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).min(1, 'is required'),
);

/** Text that may be empty; missing becomes ''. */
const optionalText = z.preprocess(
	(value) =>
		value === undefined || value === null ? '' : typeof value === 'number' ? String(value) : value,
	z.string({ invalid_type_error: 'must be text' }).transform((value) => value.trim()),
);

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

/** ISO 3166-1 alpha-2 and alpha-3 codes of the United States and its inhabited territories. */
export const US_COUNTRY_CODES: Readonly<Record<string, { territory: boolean }>> = {
	US: { territory: false },
	USA: { territory: false },
	PR: { territory: true },
	PRI: { territory: true },
	GU: { territory: true },
	GUM: { territory: true },
	VI: { territory: true },
	VIR: { territory: true },
	AS: { territory: true },
	ASM: { territory: true },
	MP: { territory: true },
	MNP: { territory: true },
};

/** USPS state abbreviations: the 50 states, DC and the armed-forces codes (territories have their own country codes). */
const US_STATE_CODES = new Set(
	(
		'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND ' +
		'OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC AA AE AP'
	).split(' '),
);

/** #####, or ZIP+4 #####-####: digits and one hyphen, no spaces. */
export const ZIP_PATTERN = /^\d{5}(?:-\d{4})?$/;

/**
 * The three accepted forms of a 10-digit US number: (###) ###-####, ###-###-####, ##########.
 * Anything else is refused, notably a leading +1, a space inside the digits, a missing area code
 * and (###)-###-####.
 */
export const PHONE_PATTERN = /^(?:\(\d{3}\) \d{3}-\d{4}|\d{3}-\d{3}-\d{4}|\d{10})$/;

const addressSchema = z
	.object({
		first_name: requiredText,
		last_name: requiredText,
		address1: requiredText,
		// The contract lists address2 among the fields always sent, but a second line is often empty.
		address2: optionalText,
		city: requiredText,
		state_abbr: requiredText,
		zipcode: requiredText.pipe(
			matching(ZIP_PATTERN, 'must be ##### or #####-#### (digits and one hyphen, no spaces)'),
		),
		country_iso: requiredText
			.transform((value) => value.toUpperCase())
			.pipe(
				z.string().refine(
					(code) => Object.hasOwn(US_COUNTRY_CODES, code),
					(code) => ({
						message: `must be the United States or a US territory (US/USA, PR/PRI, GU/GUM, VI/VIR, AS/ASM, MP/MNP; only US addresses are supported), got ${shown(code)}`,
					}),
				),
			),
		phone: requiredText.pipe(
			matching(
				PHONE_PATTERN,
				'must be a 10-digit US number written (###) ###-####, ###-###-#### or ########## (no +1, no spaces inside the digits)',
			),
		),
	})
	.superRefine((address, ctx) => {
		const country = US_COUNTRY_CODES[address.country_iso];
		if (country && !country.territory && !US_STATE_CODES.has(address.state_abbr.toUpperCase())) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['state_abbr'],
				message: `must be a standard two-letter US state abbreviation such as NY or CA, got ${shown(address.state_abbr)}`,
			});
		}
		if (country?.territory && address.city !== address.state_abbr) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['city'],
				message: `must equal state_abbr for a US territory (${address.country_iso}): city is ${shown(address.city)}, state_abbr is ${shown(address.state_abbr)}`,
			});
		}
	})
	// State codes are upper case; a territory's state_abbr mirrors its city and is sent as entered.
	.transform((address) =>
		US_COUNTRY_CODES[address.country_iso].territory
			? address
			: { ...address, state_abbr: address.state_abbr.toUpperCase() },
	);

/** The body of POST /v1/vendor/addresses and PATCH /v1/vendor/addresses/{address_id}: all strings. */
export type AddressPayload = z.output<typeof addressSchema>;

/**
 * Validates one address create/update input and returns the exact request body.
 *
 * `raw` is an object with the API field names `first_name`, `last_name`, `address1`, `address2`,
 * `city`, `state_abbr`, `zipcode`, `country_iso`, `phone` (values as read from the node's
 * parameters; numbers are accepted for text fields). The result has exactly those nine keys, all
 * strings, trimmed, `country_iso` upper-cased, `address2` '' when not given; any other key is dropped.
 *
 * Rules: all fields but address2 required; country US or a territory (ISO2/ISO3); for a territory
 * city must equal state_abbr; zipcode ##### or #####-####; phone (###) ###-####, ###-###-#### or ##########.
 *
 * @throws InputValidationError naming the item index and every invalid field
 *   (e.g. `Item index 0: zipcode must be ##### or #####-#### ...; phone must be ...`).
 */
export function parseAddressInput(raw: unknown, itemIndex: number): AddressPayload {
	return parseWith(addressSchema, raw, itemIndex);
}
