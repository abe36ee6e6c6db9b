// The sandbox's own clock: real time plus an offset the admin API can advance, so tests can make tokens and
// cursors expire without waiting; it can also stand still (reads in the same second of the service's clock, made
// deterministic), moved only by `advance`; and its answers can go without a `Date` header (RFC 9110 lets a server
// without a reliable clock send none).
export class SandboxClock {
	private offsetMs = 0;
	/** Whether API answers carry a `Date` header with this clock's time (false: none at all). */
	sendsDate = true;
	/** Set while the clock stands still: the time it shows. */
	private frozenAtMs: number | undefined;

	nowMs(): number {
		return this.frozenAtMs ?? Date.now() + this.offsetMs;
	}

	nowIso(): string {
		return new Date(this.nowMs()).toISOString();
	}

	advance(seconds: number): void {
		if (this.frozenAtMs !== undefined) this.frozenAtMs += seconds * 1000;
		else this.offsetMs += seconds * 1000;
	}

	/** Stands still at the time it shows (true), or runs on from there (false). */
	freeze(frozen: boolean): void {
		if (frozen) this.frozenAtMs ??= this.nowMs();
		else if (this.frozenAtMs !== undefined) {
			this.offsetMs = this.frozenAtMs - Date.now();
			this.frozenAtMs = undefined;
		}
	}

	reset(): void {
		this.offsetMs = 0;
		this.frozenAtMs = undefined;
		this.sendsDate = true;
	}
}
