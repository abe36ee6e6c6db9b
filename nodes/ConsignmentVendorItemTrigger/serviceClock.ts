/**
 * Times the trigger compares with the items' `created_at` / `updated_at`, which the service writes with ITS clock.
 * n8n's clock may differ from it (another machine, no time sync): compared with n8n's clock, an item changed just
 * after the trigger started watching could look older than that (lost), or the whole catalogue newer (a flood). So
 * the moment a read begins is taken from the service itself where it says: the HTTP `Date` header of the read's
 * first answer (RFC 9110: an origin server with a clock sends it; it is truncated to the second, so it is never
 * later than the moment that page was made). Only when the service sends none is n8n's clock used, with a wider
 * margin. Either way the time is a LOWER bound: a margin too wide announces a few items changed just before the
 * trigger started watching (with `previous_status_unknown`), a margin too narrow could lose one.
 */

/**
 * Subtracted from the service's `Date`: the service's web front and the database that writes `updated_at` may run
 * on machines whose clocks differ by a little (well under a minute when they are kept in sync at all).
 */
export const SERVICE_CLOCK_MARGIN_MS = 60_000;

/**
 * Subtracted from n8n's clock when the service sends no `Date`: a difference up to this between n8n's clock and the
 * service's loses nothing; beyond it, see docs/item-trigger.md ("What can be lost").
 */
export const N8N_CLOCK_MARGIN_MS = 5 * 60_000;

/** Milliseconds of an ISO 8601 timestamp (or an HTTP date), undefined when it is not one. */
export function timeOf(value: unknown): number | undefined {
	if (typeof value !== 'string' || value === '') return undefined;
	const time = Date.parse(value);
	return Number.isNaN(time) ? undefined : time;
}

/** The `Date` header of a response, whatever the case of its name. */
function dateHeader(headers: unknown): unknown {
	if (headers === null || typeof headers !== 'object') return undefined;
	const entry = Object.entries(headers as Record<string, unknown>).find(([name]) => name.toLowerCase() === 'date');
	const value = entry?.[1];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * A time on the service's clock at or before the moment a read began: `firstAnswerHeaders` are those of the read's
 * first answer, `n8nStartedAt` n8n's clock when the read began (used only without a `Date`).
 */
export function readBeganOnServiceClock(firstAnswerHeaders: unknown, n8nStartedAt: number): number {
	const serviceDate = timeOf(dateHeader(firstAnswerHeaders));
	return serviceDate !== undefined ? serviceDate - SERVICE_CLOCK_MARGIN_MS : n8nStartedAt - N8N_CLOCK_MARGIN_MS;
}
