// The bench table, as Markdown (printed and written to bench/results.md).
import { pacedMs, verdicts, WALL_FACTOR, type Row } from './metrics';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function markdownTable(rows: Row[]): string {
	const lines = [
		'| scenario | requests | 429s | late 429s (after 2 s) | items lost | wall | n8n before the 1st request | floor (N / rate) | wall / floor | from the 1st request / floor | targets |',
		'|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
	];
	for (const row of rows) {
		const late = row.requests === 0 ? '0' : `${row.late} (${((row.late / row.requests) * 100).toFixed(1)} %)`;
		let floor = '–';
		let ratio = '–';
		let paced = '–';
		if (row.floorMs !== undefined) {
			floor = seconds(row.floorMs);
			ratio = (row.wallMs / row.floorMs).toFixed(2);
			const pacedRatio = pacedMs(row) / row.floorMs;
			paced = `${pacedRatio.toFixed(2)} ${pacedRatio <= WALL_FACTOR ? '✅' : '❌'}`;
		} else if (row.compared !== undefined) {
			floor = `old code: ${seconds(row.compared.wallMs)}`;
			ratio = `${(row.wallMs / row.compared.wallMs).toFixed(2)} × old`;
			paced = `client CPU ${(row.cpuMs / row.compared.cpuMs).toFixed(2)} × old`;
		}
		const wall =
			row.walls.length > 1
				? `${seconds(row.wallMs)} (median of ${row.walls.map((ms) => (ms / 1000).toFixed(1)).join(', ')})`
				: seconds(row.wallMs);
		const targets = verdicts(row)
			.map((v) => `${v.ok ? '✅' : '❌'} ${v.text}`)
			.join('<br>');
		lines.push(
			`| ${row.scenario.title} | ${row.requests} | ${row.tooMany} | ${late} | ${row.lost} | ${wall} | ${seconds(row.firstRequestMs)} | ${floor} | ${ratio} | ${paced} | ${targets} |`,
		);
	}
	return lines.join('\n');
}

/**
 * The multi-process scenarios (Scenario.processes): totals, then each process's share of the requests and its
 * CPU time, so a process held back by its pace and one held back by a busy CPU can be told apart.
 */
export function processesTable(rows: Row[]): string {
	const lines = [
		'| scenario | requests | 429s | items lost | wall | floor (N / rate) | wall / floor | each process: requests (429s), wall, CPU | targets |',
		'|---|--:|--:|--:|--:|--:|--:|---|---|',
	];
	for (const row of rows) {
		const share = row.requests === 0 ? '0' : `${row.tooMany} (${((row.tooMany / row.requests) * 100).toFixed(1)} %)`;
		const floor = row.floorMs === undefined ? '–' : seconds(row.floorMs);
		const ratio = row.floorMs === undefined ? '–' : (row.wallMs / row.floorMs).toFixed(2);
		const each = (row.processes ?? []).map((p) => `${p.requests} (${p.tooMany}), ${seconds(p.wallMs)}, CPU ${seconds(p.cpuMs)}`).join('<br>');
		const targets = verdicts(row)
			.map((v) => `${v.ok ? '✅' : '❌'} ${v.text}`)
			.join('<br>');
		lines.push(`| ${row.scenario.title} | ${row.requests} | ${share} | ${row.lost} | ${seconds(row.wallMs)} | ${floor} | ${ratio} | ${each} | ${targets} |`);
	}
	return lines.join('\n');
}
