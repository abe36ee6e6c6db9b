// Injected faults for the next N matching API requests (not /__sandbox ones), optionally after letting `skip` of them
// through. Latency faults add up and the request then proceeds; the first matching status/rateLimit/drop fault
// decides the answer instead of the route.
import { fail } from './http';
import type { FaultKind, FaultSpec } from './types';

export interface ActiveFault extends FaultSpec {
	kind: FaultKind;
	remaining: number;
	/** Matching requests still to let through before the fault applies. */
	toSkip: number;
}

export interface FaultDecision {
	latencyMs: number;
	/** The fault that replaces the route's answer, if any. */
	terminal: ActiveFault | null;
	/** Kinds that touched the request, for the request log. */
	kinds: FaultKind[];
}

const KINDS: FaultKind[] = ['latency', 'status', 'rateLimit', 'drop', 'revokeTokens'];

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
		return {
			kind: spec.kind as FaultKind,
			count,
			remaining: count,
			skip,
			toSkip: skip,
			method: str('method')?.toUpperCase(),
			pathPrefix: str('pathPrefix'),
			ms: num('ms', 0),
			status,
			retryAfterSeconds: num('retryAfterSeconds', 0),
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

	take(method: string, path: string): FaultDecision {
		const decision: FaultDecision = { latencyMs: 0, terminal: null, kinds: [] };
		for (const fault of this.faults) {
			if (fault.method && fault.method !== method) continue;
			if (fault.pathPrefix && !path.startsWith(fault.pathPrefix)) continue;
			if (fault.toSkip > 0) {
				fault.toSkip--;
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
