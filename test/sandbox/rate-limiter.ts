// A real rate limiter, off until the admin API sets one: a token bucket per client (`rate` tokens a second,
// holding at most `burst`, full at the start), checked when a request arrives. A request that finds its bucket
// empty is answered 429 `{message}` and not processed; how the answer says when to come back is chosen
// (`Retry-After` in seconds, as an HTTP date, or absent), because real services differ and n8n 1.x never lets
// a node read it anyway. Real time, not the sandbox clock: advancing the clock must not refill buckets.
import { fail } from './http';
import type { ActiveRateLimit, RetryAfterForm } from './types';

const RETRY_AFTER_FORMS: RetryAfterForm[] = ['seconds', 'http-date', 'none'];

interface Bucket {
	tokens: number;
	/** performance.now() of the last refill. */
	at: number;
}

/** What the limiter decided for one request. */
export type LimitDecision = { allowed: true } | { allowed: false; headers: Record<string, string> };

export class RateLimiter {
	private spec: ActiveRateLimit | null = null;
	private buckets = new Map<string, Bucket>();

	/** Validates an admin request; throws a 400 HttpError naming the bad field. */
	static parse(input: unknown): ActiveRateLimit {
		const spec = (input ?? {}) as Record<string, unknown>;
		const positive = (field: string, value: unknown) => {
			if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw fail(400, `${field} must be a number > 0`);
			return value;
		};
		const rate = positive('rate', spec.rate);
		const burst = spec.burst === undefined ? Math.max(1, rate) : positive('burst', spec.burst);
		if (burst < 1) throw fail(400, 'burst must be at least 1 (a bucket that cannot hold one request refuses everything)');
		const retryAfter = spec.retryAfter ?? 'seconds';
		if (!RETRY_AFTER_FORMS.includes(retryAfter as RetryAfterForm)) {
			throw fail(400, `retryAfter must be one of ${RETRY_AFTER_FORMS.join(', ')}`);
		}
		let retryAfterSeconds: number | undefined;
		if (spec.retryAfterSeconds !== undefined) {
			const v = spec.retryAfterSeconds;
			if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw fail(400, 'retryAfterSeconds must be an integer >= 0');
			retryAfterSeconds = v;
		}
		return { rate, burst, retryAfter: retryAfter as RetryAfterForm, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) };
	}

	/** The limit in force, or null. */
	get current(): ActiveRateLimit | null {
		return this.spec === null ? null : { ...this.spec };
	}

	/** A new limit starts every client with a full bucket. */
	set(spec: ActiveRateLimit): void {
		this.spec = { ...spec };
		this.buckets.clear();
	}

	clear(): void {
		this.spec = null;
		this.buckets.clear();
	}

	/**
	 * Takes one token from `client`'s bucket. Requests with no client (no valid token: they get their 401 as
	 * usual) and any request while no limit is set are allowed.
	 */
	take(client: string | undefined, now: number = performance.now()): LimitDecision {
		const spec = this.spec;
		if (spec === null || client === undefined) return { allowed: true };
		let bucket = this.buckets.get(client);
		if (bucket === undefined) {
			bucket = { tokens: spec.burst, at: now };
			this.buckets.set(client, bucket);
		}
		bucket.tokens = Math.min(spec.burst, bucket.tokens + ((now - bucket.at) / 1000) * spec.rate);
		bucket.at = now;
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			return { allowed: true };
		}
		if (spec.retryAfter === 'none') return { allowed: false, headers: {} };
		// When the next token is there (or the fixed answer the limit was set with).
		const waitMs = spec.retryAfterSeconds !== undefined ? spec.retryAfterSeconds * 1000 : ((1 - bucket.tokens) / spec.rate) * 1000;
		// Both forms have whole seconds only: round up, so a client that waits as told finds its token.
		if (spec.retryAfter === 'seconds') {
			const seconds = spec.retryAfterSeconds ?? Math.max(1, Math.ceil(waitMs / 1000));
			return { allowed: false, headers: { 'Retry-After': String(seconds) } };
		}
		const date = new Date(Math.ceil((Date.now() + waitMs) / 1000) * 1000);
		return { allowed: false, headers: { 'Retry-After': date.toUTCString() } };
	}
}
