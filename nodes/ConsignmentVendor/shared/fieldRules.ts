/** Each rule's message reads after the field name ("zipcode must be ...") and shows the value, to find the bad cell. */
import type { z } from 'zod';

import { httpUrl } from '../../shared/httpUrl';
import { isJsonObject } from '../../shared/jsonObject';
import { MoneyFormatError, PriceUnit, toCents } from '../../shared/money';
import { isBlank, refuse, rule, type Checked } from './ruleSchemas';

interface InputIssue {
	/** Dot path for nested fields, e.g. `image.front`. */
	field: string;
	message: string;
}

/** `message` is complete on its own (`Item index 2: zipcode must be ...`): callers may rethrow it as is. */
export class InputValidationError extends Error {
	constructor(
		readonly itemIndex: number,
		readonly issues: InputIssue[],
	) {
		super(formatIssues(itemIndex, issues));
		this.name = 'InputValidationError';
	}
}

/** How every message about one input item starts, so a user finds the row in a long run. */
export function itemPrefix(itemIndex: number): string {
	return `Item index ${itemIndex}`;
}

function formatIssues(itemIndex: number, issues: InputIssue[]): string {
	const details = issues.map((issue) => `${issue.field} ${issue.message}`).join('; ');
	return `${itemPrefix(itemIndex)}: ${details}`;
}

/** How a field is named in messages, from its API path (`image.front`). */
export type FieldNamer = (apiPath: string) => string;

function toIssues(error: z.ZodError, fieldName: FieldNamer): InputIssue[] {
	return error.issues.map((issue) => ({
		field: issue.path.length ? fieldName(issue.path.map(String).join('.')) : 'input',
		message: issue.message,
	}));
}

export function parseWith<Schema extends z.ZodTypeAny>(
	schema: Schema,
	raw: unknown,
	itemIndex: number,
	fieldName: FieldNamer = (apiPath) => apiPath,
): z.output<Schema> {
	const result = schema.safeParse(raw);
	if (!result.success) throw new InputValidationError(itemIndex, toIssues(result.error, fieldName));
	return result.data;
}

export function shown(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

export function matching(pattern: RegExp, requirement: string) {
	return rule((value) => {
		if (typeof value !== 'string') return refuse('must be text');
		return pattern.test(value) ? value : refuse(`${requirement}, got ${shown(value)}`);
	});
}

/** Numbers are accepted and stringified; trimmed. */
export const requiredText = rule((value) => {
	if (isBlank(value)) return refuse('is required');
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' ? value.trim() : refuse('must be text');
});

/** Text that may be empty; missing becomes ''. */
export const optionalText = rule((value) => {
	if (value === undefined || value === null) return '';
	if (typeof value === 'number') return String(value);
	return typeof value === 'string' ? value.trim() : refuse('must be text');
});

/** `true`/`false`, also as the strings a spreadsheet or an expression yields. */
export const booleanField = rule((value) => {
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (text === 'true') return true;
	if (text === 'false') return false;
	return refuse(isBlank(value) ? 'is required' : `must be true or false, got ${shown(value)}`);
});

export function integerField(minimum: number, requirement: string) {
	return rule((value) => {
		if (isBlank(value)) return refuse('is required');
		const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
		if (typeof number !== 'number') return refuse(`must be ${requirement}`);
		return Number.isSafeInteger(number) && number >= minimum ? number : refuse(`must be ${requirement}, got ${number}`);
	});
}

export const httpUrlField = requiredText.pipe(
	rule((value) => {
		const text = String(value);
		if (httpUrl(text) !== undefined) return text;
		return refuse(`must be an absolute http(s) URL such as https://example.com/photo.jpg, got ${shown(text)}`);
	}),
);

/** n8n's JSON parameters arrive as an object or as JSON text. */
export function jsonObjectField(whenBlank: () => Record<string, unknown> | undefined) {
	return rule((value): Checked<Record<string, unknown> | undefined> => {
		if (isBlank(value)) return whenBlank();
		let parsed = value;
		if (typeof value === 'string') {
			try {
				parsed = JSON.parse(value);
			} catch (error) {
				return refuse(`must be valid JSON (${(error as Error).message})`);
			}
		}
		if (!isJsonObject(parsed)) {
			return refuse(`must be a JSON object such as {"color": "Black"}, got ${Array.isArray(parsed) ? 'an array' : shown(parsed)}`);
		}
		return parsed as Record<string, unknown>;
	});
}

/** In cents. The contract only says "integer", but a price of 0 is a data mistake that would offer the item for nothing. */
export function moneyField(unit: PriceUnit) {
	return rule((value) => {
		if (value === undefined || value === null || value === '') return refuse('is required');
		try {
			const cents = toCents(value, unit);
			return cents > 0 ? cents : refuse(`must be greater than 0, got ${shown(value)}`);
		} catch (error) {
			// toCents throws only MoneyFormatError, whose message is written for the user.
			return refuse((error as MoneyFormatError).message);
		}
	});
}
