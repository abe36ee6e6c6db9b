/**
 * Schemas from plain check functions, because at runtime `zod` is n8n's own copy (3 or 4), which differ exactly
 * where validation lives: zod 4 ignores `required_error`/`invalid_type_error`, needs two arguments for `z.record`,
 * treats missing keys, refinements after a failed field and `refine`'s message differently. Only what both do
 * alike is used (`z.unknown()`, `.transform()` + `ctx.addIssue`, `z.NEVER`, `.pipe()`, `safeParse`).
 */
import { z } from 'zod';

/** A class, so that no value a user typed (a JSON object, say) can be mistaken for one. */
export class Refusal {
	constructor(
		readonly message: string,
		readonly path?: Array<string | number>,
	) {}
}

export function refuse(message: string, path?: Array<string | number>): Refusal {
	return new Refusal(message, path);
}

function isRefusal(value: unknown): value is Refusal {
	return value instanceof Refusal;
}

/** Nothing entered: missing, null, or blank text (an empty spreadsheet cell is any of these). */
export function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export type Checked<T> = T | Refusal | Refusal[];

export function rule<T>(check: (value: unknown) => Checked<T>) {
	return z.unknown().transform((value, ctx): T => {
		const result = check(value);
		const refusals = isRefusal(result) ? [result] : Array.isArray(result) && result.length > 0 && result.every(isRefusal) ? result : [];
		if (refusals.length === 0) return result as T;
		for (const { message, path } of refusals) ctx.addIssue({ code: 'custom', message, ...(path ? { path } : {}) });
		return z.NEVER;
	});
}

/** zod 4 paths may hold symbols: made strings. */
function refusalsOf(error: z.ZodError, under: Array<string | number> = []): Refusal[] {
	return error.issues.map((issue) =>
		refuse(issue.message, [...under, ...issue.path.map((part) => (typeof part === 'number' ? part : String(part)))]),
	);
}

/** Blank is accepted as undefined. */
export function whenGiven<S extends z.ZodTypeAny>(schema: S) {
	return rule((value): Checked<z.output<S> | undefined> => {
		if (isBlank(value)) return undefined;
		const result = schema.safeParse(value);
		return result.success ? (result.data as z.output<S>) : refusalsOf(result.error);
	});
}

type Shape = Record<string, z.ZodTypeAny>;
type FieldsOutput<S extends Shape> = { [K in keyof S]: z.output<S[K]> };

/**
 * Each field parsed on its own, every field's problems reported; other keys dropped. `crossCheck` sees the fields
 * that parsed, so a rule between fields is reported whenever its own fields are valid.
 */
export function fields<S extends Shape>(
	shape: S,
	notAnObject: string,
	crossCheck?: (parsed: Partial<FieldsOutput<S>>) => Refusal[],
) {
	return rule((value): Checked<FieldsOutput<S>> => {
		if (value === undefined || value === '') return refuse('is required');
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse(notAnObject);
		const input = value as Record<string, unknown>;
		const parsed: Partial<FieldsOutput<S>> = {};
		const refusals: Refusal[] = [];
		for (const key of Object.keys(shape) as Array<keyof S & string>) {
			const result = shape[key].safeParse(input[key]);
			if (result.success) parsed[key] = result.data as FieldsOutput<S>[typeof key];
			else refusals.push(...refusalsOf(result.error, [key]));
		}
		refusals.push(...(crossCheck?.(parsed) ?? []));
		return refusals.length ? refusals : (parsed as FieldsOutput<S>);
	});
}
