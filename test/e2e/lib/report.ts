import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface CheckResult {
	version: string;
	name: string;
	ok: boolean;
	detail: string;
	/** Why the check did not run (then ok is true and it counts neither as passed nor failed). */
	skipped?: string;
	ms: number;
}

export interface ResultsFile {
	passed: number;
	failed: number;
	skipped: number;
	checks: CheckResult[];
}

export function summarize(results: CheckResult[]): ResultsFile {
	return {
		passed: results.filter((r) => r.ok && !r.skipped).length,
		failed: results.filter((r) => !r.ok).length,
		skipped: results.filter((r) => r.skipped).length,
		checks: results,
	};
}

export function writeResults(file: string, results: CheckResult[]): ResultsFile {
	const summary = summarize(results);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(summary, null, 2));
	return summary;
}

export function formatResult(r: CheckResult): string {
	const mark = r.skipped ? 'SKIP' : r.ok ? 'PASS' : 'FAIL';
	const secs = `${(r.ms / 1000).toFixed(1)}s`.padStart(6);
	const why = r.skipped ?? (r.ok ? r.detail : r.detail.split('\n').join('\n        '));
	return `  ${mark} ${secs}  ${r.name}${why ? ` — ${why}` : ''}`;
}

/** The per-version table printed at the end of a run. */
export function formatReport(results: CheckResult[], versionTimes: Record<string, number>): string {
	const lines: string[] = [];
	for (const version of [...new Set(results.map((r) => r.version))]) {
		const mine = results.filter((r) => r.version === version);
		const s = summarize(mine);
		const secs = ((versionTimes[version] ?? 0) / 1000).toFixed(0);
		lines.push(`n8n ${version}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped (${secs} s)`);
		for (const r of mine) {
			lines.push(`  ${r.skipped ? 'SKIP' : r.ok ? 'PASS' : 'FAIL'}  ${r.name}`);
			// Why it failed, again at the end: a CI log is often read from its tail only.
			if (!r.ok) lines.push(`        ${r.detail.split('\n').slice(0, 6).join('\n        ')}`);
		}
	}
	return lines.join('\n');
}
