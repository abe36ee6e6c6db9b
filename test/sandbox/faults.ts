// Injected faults for the next N matching API requests (not /__sandbox ones), optionally after letting `skip` of them
// through. Latency faults add up and the request then proceeds; the first matching status/rateLimit/drop/outage
// fault decides the answer instead of the route. An outage is by time, not count: it starts with its first matching
// request (after `skip`) and answers every matching request `status` for `ms` of real time.
import { fail, type ApiResponse } from './http';
import type { FaultKind, FaultSpec, RetryAfterForm } from './types';

export interface ActiveFault extends FaultSpec {
	kind: FaultKind;
	remaining: number;
	/** Matching requests still to let through before the fault applies. */
	toSkip: number;
	/** outage: when it ends (Date.now() ms), set by its first matching request. */
	endsAt?: number;
}

export interface FaultDecision {
	latencyMs: number;
	/** The fault that replaces the route's answer, if any. */
	terminal: ActiveFault | null;
	/** Kinds that touched the request, for the request log. */
	kinds: FaultKind[];
}

const KINDS: FaultKind[] = ['latency', 'status', 'rateLimit', 'drop', 'revokeTokens', 'outage'];
const RETRY_AFTER_FORMS: RetryAfterForm[] = ['seconds', 'http-date', 'none'];

export class FaultQueue {
	private faults: ActiveFault[] = [];

	/** Validates an admin request; throws a 400 HttpError naming the bad field. */
	static parse(input: unknown): ActiveFault {
		const spec = (input ?? {}) as Record<string, unknown>;
		if (!KINDS.includes(spec.kind as FaultKind)) throw fail(400, `kind must be one of ${KINDS.join(', ')}`);
		const num = (field: string, min: number): number | undefined => {
			const v = spec[field];
			if (v === undefined) return undefined;
			if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw fail(400, `${field} must be an integer >= ${min}`);
			return v;
		};
		const str = (field: string): string | undefined => {
			const v = spec[field];
			if (v === undefined) return undefined;
			if (typeof v !== 'string') throw fail(400, `${field} must be a string`);
			return v;
		};
		const count = num('count', 1) ?? 1;
		const skip = num('skip', 0) ?? 0;
		const status = num('status', 100);
		if (status !== undefined && status > 599) throw fail(400, 'status must be an HTTP status code');
		const retryAfter = str('retryAfter');
		if (retryAfter !== undefined && !RETRY_AFTER_FORMS.includes(retryAfter as RetryAfterForm)) {
			throw fail(400, `retryAfter must be one of ${RETRY_AFTER_FORMS.join(', ')}`);
		}
		return {
			kind: spec.kind as FaultKind,
			count,
			remaining: count,
			skip,
			toSkip: skip,
			method: str('method')?.toUpperCase(),
			pathPrefix: str('pathPrefix'),
			path: str('path'),
			ms: num('ms', 0),
			status,
			retryAfterSeconds: num('retryAfterSeconds', 0),
			...(retryAfter !== undefined ? { retryAfter: retryAfter as RetryAfterForm } : {}),
			...(spec.body !== undefined ? { body: spec.body } : {}),
		};
	}

	add(fault: ActiveFault): void {
		this.faults.push(fault);
	}

	list(): ActiveFault[] {
		return this.faults.map((f) => ({ ...f }));
	}

	clear(): void {
		this.faults = [];
	}

	take(method: string, path: string, now: number = Date.now()): FaultDecision {
		const decision: FaultDecision = { latencyMs: 0, terminal: null, kinds: [] };
		for (const fault of this.faults) {
			if (fault.method && fault.method !== method) continue;
			if (fault.pathPrefix && !path.startsWith(fault.pathPrefix)) continue;
			if (fault.path !== undefined && fault.path !== path) continue;
			if (fault.toSkip > 0) {
				fault.toSkip--;
				continue;
			}
			if (fault.kind === 'outage') {
				fault.endsAt ??= now + (fault.ms ?? 1000);
				if (now >= fault.endsAt) fault.remaining = 0;
				else if (!decision.terminal) {
					decision.terminal = fault;
					if (!decision.kinds.includes(fault.kind)) decision.kinds.push(fault.kind);
				}
				continue;
			}
			if (fault.kind === 'latency') {
				decision.latencyMs += fault.ms ?? 1000;
			} else if (!decision.terminal) {
				decision.terminal = fault;
			} else {
				continue;
			}
			fault.remaining--;
			if (!decision.kinds.includes(fault.kind)) decision.kinds.push(fault.kind);
		}
		this.faults = this.faults.filter((f) => f.remaining > 0);
		return decision;
	}
}

/**
 * An outage's answer: `status` (default 503) `{error: 'Service unavailable'}`, saying when it ends in the chosen
 * form, rounded up to the second as both forms are (a client that waits as told finds the service back).
 */
export function outageAnswer(fault: ActiveFault, now: number = Date.now()): ApiResponse {
	const endsAt = fault.endsAt ?? now;
	const form = fault.retryAfter ?? 'http-date';
	const headers: Record<string, string> = {};
	if (form === 'seconds') headers['Retry-After'] = String(Math.max(1, Math.ceil((endsAt - now) / 1000)));
	else if (form === 'http-date') headers['Retry-After'] = new Date(Math.ceil(endsAt / 1000) * 1000).toUTCString();
	return { status: fault.status ?? 503, body: { error: 'Service unavailable' }, headers };
}
