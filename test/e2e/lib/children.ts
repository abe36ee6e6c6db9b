/**
 * Every child the suite starts runs in its own process group (so a timeout can end npm's or n8n's own
 * children too). A terminal's Ctrl-C does not reach those groups, so they are tracked here and killed
 * when this process exits or is interrupted.
 */
const groups = new Set<number>();
let installed = false;

export function trackGroup(pid: number | undefined): void {
	if (!pid) return;
	groups.add(pid);
	installHandlers();
}

export function untrackGroup(pid: number | undefined): void {
	if (pid) groups.delete(pid);
}

export function killAllGroups(signal: NodeJS.Signals = 'SIGKILL'): void {
	for (const pid of groups) {
		try {
			process.kill(-pid, signal);
		} catch {
			// already gone
		}
	}
	groups.clear();
}

function installHandlers(): void {
	if (installed) return;
	installed = true;
	process.on('exit', () => killAllGroups());
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			killAllGroups('SIGTERM');
			setTimeout(() => {
				killAllGroups('SIGKILL');
				process.exit(130);
			}, 1500).unref();
			process.exitCode = 130;
		});
	}
}

/** A runner's entry point: exits with the code `main` resolves to; a crash is printed and leaves no child behind. */
export function exitWith(main: () => Promise<number>): void {
	main().then(
		(code) => process.exit(code),
		(error: unknown) => {
			console.error(error);
			killAllGroups();
			process.exit(1);
		},
	);
}
