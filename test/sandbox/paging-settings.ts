// The sandbox's paging knobs, changeable at run time through POST /__sandbox/paging (and SandboxAdmin.setPaging):
// the contract leaves default and maximum page_size and cursor lifetime "not shown", so clients must work with any.
// Kept in this file (settings, parsing, admin routes) so the rest of the sandbox only reads `sandbox.paging`.
import { fail, jsonObjectBody, ok } from './http';
import type { Router } from './router';

export interface PagingSettings {
	/** page_size when none is sent. */
	defaultPageSize: number;
	/** Largest page_size served. */
	maxPageSize: number;
	/** Above maxPageSize: `clamp` serves maxPageSize silently; `reject` answers 400 naming page_size. */
	aboveMaximum: 'clamp' | 'reject';
	/** A cursor older than this (sandbox clock) answers 400 "after cursor has expired". */
	cursorLifetimeSeconds: number;
}

export const DEFAULT_PAGING: Readonly<PagingSettings> = {
	defaultPageSize: 20,
	maxPageSize: 100,
	aboveMaximum: 'clamp',
	cursorLifetimeSeconds: 15 * 60,
};

/** The settings after applying `input` (any subset of the fields) to `current`; a 400 naming a bad field. */
export function parsePagingSettings(input: Record<string, unknown>, current: PagingSettings): PagingSettings {
	const next = { ...current };
	const positive = (field: 'defaultPageSize' | 'maxPageSize' | 'cursorLifetimeSeconds', min: number) => {
		const value = input[field];
		if (value === undefined) return;
		if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw fail(400, `${field} must be an integer >= ${min}`);
		next[field] = value;
	};
	positive('defaultPageSize', 1);
	positive('maxPageSize', 1);
	positive('cursorLifetimeSeconds', 0);
	if (input.aboveMaximum !== undefined) {
		if (input.aboveMaximum !== 'clamp' && input.aboveMaximum !== 'reject') throw fail(400, 'aboveMaximum must be "clamp" or "reject"');
		next.aboveMaximum = input.aboveMaximum;
	}
	const unknown = Object.keys(input).filter((key) => !(key in DEFAULT_PAGING));
	if (unknown.length) throw fail(400, `unknown paging setting(s): ${unknown.join(', ')}`);
	return next;
}

/** page_size of one request under `settings`: a 400 for a bad value, or (reject mode) above the maximum. */
export function pageSizeOf(raw: string | undefined, settings: PagingSettings): number {
	if (raw === undefined || raw === '') return Math.min(settings.defaultPageSize, settings.maxPageSize);
	if (!/^\d+$/.test(raw) || Number(raw) < 1) throw fail(400, 'page_size is invalid: must be a positive integer');
	const asked = Number(raw);
	if (asked > settings.maxPageSize && settings.aboveMaximum === 'reject') {
		throw fail(400, `page_size is invalid: must be at most ${settings.maxPageSize}`);
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
