import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const STAMP = '.install-complete.json';

export interface AtomicInstall {
	/** The directory the finished install lives in. */
	dir: string;
	/** What must match the stamp for a cached install to count (e.g. version and overrides). */
	identity: Record<string, unknown>;
	/** Fills an empty staging directory; throws on failure. */
	build(stagingDir: string): Promise<void>;
	/** Throws when an install (cached or fresh) does not work. */
	verify(dir: string): Promise<void>;
	log(message: string): void;
}

export interface InstallOutcome {
	dir: string;
	reused: boolean;
	ms: number;
}

/**
 * Installs into a staging directory and renames it into place only after it is complete and verified,
 * with a stamp recording what was installed. An interrupted install leaves only a staging directory
 * (removed on the next attempt), never a half-filled `dir` that looks finished.
 */
export async function atomicInstall(spec: AtomicInstall): Promise<InstallOutcome> {
	const started = Date.now();
	const wanted = JSON.stringify(spec.identity);
	if (stampMatches(spec.dir, wanted)) {
		try {
			await spec.verify(spec.dir);
			return { dir: spec.dir, reused: true, ms: Date.now() - started };
		} catch (error) {
			spec.log(`cached install at ${spec.dir} is broken (${(error as Error).message}); reinstalling`);
		}
	}
	removeStaleStaging(spec.dir);
	const staging = `${spec.dir}.staging-${process.pid}`;
	mkdirSync(staging, { recursive: true });
	try {
		await spec.build(staging);
		await spec.verify(staging);
		writeFileSync(join(staging, STAMP), wanted);
		if (stampMatches(spec.dir, wanted)) {
			// another process (a parallel `npm run dev`) finished the same install first: keep theirs
			rmSync(staging, { recursive: true, force: true });
		} else {
			rmSync(spec.dir, { recursive: true, force: true });
			renameSync(staging, spec.dir);
		}
	} catch (error) {
		rmSync(staging, { recursive: true, force: true });
		throw error;
	}
	// Paths inside a finished install may have been recorded with the staging name; verify the final place.
	await spec.verify(spec.dir);
	return { dir: spec.dir, reused: false, ms: Date.now() - started };
}

function stampMatches(dir: string, wanted: string): boolean {
	const stamp = join(dir, STAMP);
	return existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted;
}

/** Staging directories of dead processes (a killed install) are garbage. */
function removeStaleStaging(dir: string): void {
	const parent = dirname(dir);
	const prefix = `${basename(dir)}.staging-`;
	for (const entry of readdirSync(parent)) {
		if (!entry.startsWith(prefix)) continue;
		const pid = Number(entry.slice(prefix.length));
		if (!isAlive(pid)) rmSync(join(parent, entry), { recursive: true, force: true });
	}
}

function isAlive(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}
