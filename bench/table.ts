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
