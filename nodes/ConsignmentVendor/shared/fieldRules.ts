/**
 * Building blocks of the input schemas in schemas.ts: the validation error every parse function throws,
 * and field rules shared by items and addresses. Each rule's message reads after the field name
 * ("zipcode must be ...") and shows the offending value, so a user can find the bad cell.
 *
 * zod 3 API only: n8n hands community packages its own zod, which is v3.
 */
import { z } from 'zod';

import { isJsonObject } from '../../shared/jsonObject';
import { MoneyFormatError, PriceUnit, toCents } from './money';

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

export function parseWith<Schema extends z.ZodTypeAny>(
	schema: Schema,
	raw: unknown,
	itemIndex: number,
): z.output<Schema> {
	const result = schema.safeParse(raw);
	if (!result.success) throw new InputValidationError(itemIndex, toIssues(result.error));
	return result.data;
}

export function shown(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Shared field rules
// ---------------------------------------------------------------------------------------------

/** A string matching `pattern`; the message shows the offending value so a user can find it. */
export function matching(pattern: RegExp, rule: string) {
	return z.string().refine(
		(value) => pattern.test(value),
		(value) => ({ message: `${rule}, got ${shown(value)}` }),
	);
}

/** A required text field: present, a string (numbers are accepted and stringified), not blank. */
export const requiredText = z.preprocess(
	(value) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value),
	z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).min(1, 'is required'),
);

/** Text that may be empty; missing becomes ''. */
export const optionalText = z.preprocess(
	(value) =>
		value === undefined || value === null ? '' : typeof value === 'number' ? String(value) : value,
	z.string({ invalid_type_error: 'must be text' }).transform((value) => value.trim()),
);


/** `true`/`false`, also as the strings a spreadsheet or an expression yields. */
export const booleanField = z.unknown().transform((value, ctx): boolean => {
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true') return true;
	if (text === 'false') return false;
	ctx.addIssue({
		code: z.ZodIssueCode.custom,
		message: value === undefined || value === null || text === '' ? 'is required' : `must be true or false, got ${shown(value)}`,
	});
	return z.NEVER;
});

export function integerField(minimum: number, rule: string) {
	return z.preprocess(
		(value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
		z
			.number({ required_error: 'is required', invalid_type_error: `must be ${rule}` })
			.refine(
				(value) => Number.isSafeInteger(value) && value >= minimum,
				(value) => ({ message: `must be ${rule}, got ${value}` }),
			),
	);
}

export const absoluteHttpUrl = requiredText.pipe(
	z.string().refine(
		(value) => {
			try {
				const url = new URL(value);
				return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
			} catch {
				return false;
			}
		},
		(value) => ({ message: `must be an absolute http(s) URL such as https://example.com/photo.jpg, got ${shown(value)}` }),
	),
);

/**
 * A JSON object, given as an object or as JSON text (n8n's JSON parameters arrive as either).
 * Blank means "not given": `whenBlank` decides what that becomes.
 */
export function jsonObjectField(whenBlank: () => Record<string, unknown> | undefined) {
	return z.unknown().transform((value, ctx): Record<string, unknown> | undefined => {
		let parsed = value;
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
			return whenBlank();
		}
		if (typeof value === 'string') {
			try {
				parsed = JSON.parse(value);
			} catch (error) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					message: `must be valid JSON (${(error as Error).message})`,
				});
				return z.NEVER;
			}
		}
		if (!isJsonObject(parsed)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: `must be a JSON object such as {"color": "Black"}, got ${Array.isArray(parsed) ? 'an array' : shown(parsed)}`,
			});
			return z.NEVER;
		}
		return parsed as Record<string, unknown>;
	});
}

export function moneyField(unit: PriceUnit) {
	return z.unknown().transform((value, ctx) => {
		if (value === undefined || value === null || value === '') {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'is required' });
			return z.NEVER;
		}
		try {
			const cents = toCents(value, unit);
			if (cents > 0) return cents;
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be greater than 0, got ${shown(value)}` });
		} catch (error) {
			// toCents throws only MoneyFormatError, whose message is written for the user.
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: (error as MoneyFormatError).message });
		}
		return z.NEVER;
	});
}
