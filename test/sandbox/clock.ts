// The sandbox's own clock: real time plus an offset the admin API can advance, so tests can make tokens and
// cursors expire without waiting.
export class SandboxClock {
	private offsetMs = 0;

	nowMs(): number {
		return Date.now() + this.offsetMs;
	}

	nowIso(): string {
		return new Date(this.nowMs()).toISOString();
	}

	advance(seconds: number): void {
		this.offsetMs += seconds * 1000;
	}

	reset(): void {
		this.offsetMs = 0;
	}
}
