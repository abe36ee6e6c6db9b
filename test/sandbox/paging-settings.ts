// The sandbox's paging knobs, changeable at run time through POST /__sandbox/paging (and SandboxAdmin.setPaging):
// the contract leaves default and maximum page_size and cursor lifetime "not shown", and shows no form for an
// expired cursor or a refused page size, so clients must work with any; the knobs play other services' choices.
// Kept in this file (settings, parsing, admin routes) so the rest of the sandbox only reads `sandbox.paging`.
import { fail, HttpError, jsonObjectBody, ok } from './http';
import type { Router } from './router';

export interface PagingSettings {
	/** page_size when none is sent. */
	defaultPageSize: number;
	/** Largest page_size served. */
	maxPageSize: number;
	/** Above maxPageSize: `clamp` serves maxPageSize silently; `reject` answers the page-size refusal (pageSizeRefusal*). */
	aboveMaximum: 'clamp' | 'reject';
	/** A cursor older than this (sandbox clock) is refused as expired (see expiredCursor*). */
	cursorLifetimeSeconds: number;
	/** Status of the answer to an expired cursor. */
	expiredCursorStatus: number;
	/** Shape of its body (see RefusalBody). */
	expiredCursorBody: RefusalBody;
	/** Its wording; null: the sandbox's own, "after cursor has expired; start again from the first page". */
	expiredCursorMessage: string | null;
	/** Status of the answer to a page_size above the maximum when aboveMaximum is `reject`. */
	pageSizeRefusalStatus: number;
	pageSizeRefusalBody: RefusalBody;
	/** null: the sandbox's own, "page_size is invalid: must be at most N". */
	pageSizeRefusalMessage: string | null;
	/**
	 * Records GET /v1/items lists per item: variants, each with its own `id` and the item's `item_id` (the contract's
	 * `id` is the variant's). 1 = one variant per item, whose `id` is the stored one.
	 */
	variantsPerItem: number;
}

/** `{error: m}` (the sandbox's own), `{message: m}`, `{errors: [{message: m}]}`, or `m` as text/plain. */
export type RefusalBody = 'error' | 'message' | 'errors' | 'text';
const REFUSAL_BODIES: RefusalBody[] = ['error', 'message', 'errors', 'text'];

export const DEFAULT_PAGING: Readonly<PagingSettings> = {
	defaultPageSize: 20,
	maxPageSize: 100,
	aboveMaximum: 'clamp',
	cursorLifetimeSeconds: 15 * 60,
	expiredCursorStatus: 400,
	expiredCursorBody: 'error',
	expiredCursorMessage: null,
	pageSizeRefusalStatus: 400,
	pageSizeRefusalBody: 'error',
	pageSizeRefusalMessage: null,
	variantsPerItem: 1,
};

/** A refusal answered with `status`, `message` in the `body` shape. */
export function refusal(status: number, body: RefusalBody, message: string): HttpError {
	if (body === 'text') return new HttpError(status, {}, message);
	if (body === 'errors') return new HttpError(status, { errors: [{ message }] });
	return new HttpError(status, { [body]: message });
}

/** The answer to an expired cursor given as `param` (`after` or `before`). */
export function expiredCursor(param: string, settings: PagingSettings): HttpError {
	const message = settings.expiredCursorMessage ?? `${param} cursor has expired; start again from the first page`;
	return refusal(settings.expiredCursorStatus, settings.expiredCursorBody, message);
}

/** The settings after applying `input` (any subset of the fields) to `current`; a 400 naming a bad field. */
export function parsePagingSettings(input: Record<string, unknown>, current: PagingSettings): PagingSettings {
	const next = { ...current };
	const positive = (field: 'defaultPageSize' | 'maxPageSize' | 'cursorLifetimeSeconds' | 'variantsPerItem', min: number) => {
		const value = input[field];
		if (value === undefined) return;
		if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw fail(400, `${field} must be an integer >= ${min}`);
		next[field] = value;
	};
	positive('defaultPageSize', 1);
	positive('maxPageSize', 1);
	positive('cursorLifetimeSeconds', 0);
	for (const field of ['expiredCursorStatus', 'pageSizeRefusalStatus'] as const) {
		const value = input[field];
		if (value === undefined) continue;
		if (typeof value !== 'number' || !Number.isInteger(value) || value < 400 || value > 499) throw fail(400, `${field} must be a 4xx status`);
		next[field] = value;
	}
	for (const field of ['expiredCursorBody', 'pageSizeRefusalBody'] as const) {
		const value = input[field];
		if (value === undefined) continue;
		if (!REFUSAL_BODIES.includes(value as RefusalBody)) throw fail(400, `${field} must be one of ${REFUSAL_BODIES.join(', ')}`);
		next[field] = value as RefusalBody;
	}
	for (const field of ['expiredCursorMessage', 'pageSizeRefusalMessage'] as const) {
		const value = input[field];
		if (value === undefined) continue;
		if (value !== null && (typeof value !== 'string' || value === '')) throw fail(400, `${field} must be a non-empty string or null`);
		next[field] = value;
	}
	positive('variantsPerItem', 1);
	if (next.variantsPerItem > 10) throw fail(400, 'variantsPerItem must be an integer >= 1 and <= 10');
	if (input.aboveMaximum !== undefined) {
		if (input.aboveMaximum !== 'clamp' && input.aboveMaximum !== 'reject') throw fail(400, 'aboveMaximum must be "clamp" or "reject"');
		next.aboveMaximum = input.aboveMaximum;
	}
	const unknown = Object.keys(input).filter((key) => !(key in DEFAULT_PAGING));
	if (unknown.length) throw fail(400, `unknown paging setting(s): ${unknown.join(', ')}`);
	return next;
}

/** page_size of one request under `settings`: a 400 for a bad value, or (reject mode) the refusal above the maximum. */
export function pageSizeOf(raw: string | undefined, settings: PagingSettings): number {
	if (raw === undefined || raw === '') return Math.min(settings.defaultPageSize, settings.maxPageSize);
	if (!/^\d+$/.test(raw) || Number(raw) < 1) throw fail(400, 'page_size is invalid: must be a positive integer');
	const asked = Number(raw);
	if (asked > settings.maxPageSize && settings.aboveMaximum === 'reject') {
		const message = settings.pageSizeRefusalMessage ?? `page_size is invalid: must be at most ${settings.maxPageSize}`;
		throw refusal(settings.pageSizeRefusalStatus, settings.pageSizeRefusalBody, message);
	}
	return Math.min(asked, settings.maxPageSize);
}

/** GET/POST /__sandbox/paging; `reset` puts DEFAULT_PAGING back with the rest of the sandbox. */
export function registerPagingAdmin(router: Router, prefix: string, paging: { get(): PagingSettings; set(settings: PagingSettings): void }): void {
	router.add('GET', `${prefix}/paging`, () => ok(paging.get()));
	router.add('POST', `${prefix}/paging`, (ctx) => {
		paging.set(parsePagingSettings(jsonObjectBody(ctx.body), paging.get()));
		return ok(paging.get());
	});
}
