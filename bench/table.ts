// The bench table, as Markdown (printed and written to bench/results.md).
import { verdicts, type Row } from './metrics';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function markdownTable(rows: Row[]): string {
	const lines = [
		'| scenario | requests | 429s | late 429s (after 2 s) | items lost | wall | floor (N / rate) | wall / floor | targets |',
		'|---|--:|--:|--:|--:|--:|--:|--:|---|',
	];
	for (const row of rows) {
		const late = row.requests === 0 ? '0' : `${row.late} (${((row.late / row.requests) * 100).toFixed(1)} %)`;
		let floor = '–';
		let ratio = '–';
		if (row.floorMs !== undefined) {
			floor = seconds(row.floorMs);
			ratio = (row.wallMs / row.floorMs).toFixed(2);
		} else if (row.compareWallMs !== undefined) {
			floor = `old code: ${seconds(row.compareWallMs)}`;
			ratio = `${(row.wallMs / row.compareWallMs).toFixed(2)} × old`;
		}
		const wall = row.walls.length > 1 ? `${seconds(row.wallMs)} (median of ${row.walls.map((ms) => (ms / 1000).toFixed(2)).join(', ')})` : seconds(row.wallMs);
		const targets = verdicts(row)
			.map((v) => `${v.ok ? '✅' : '❌'} ${v.text}`)
			.join('<br>');
		lines.push(`| ${row.scenario.title} | ${row.requests} | ${row.tooMany} | ${late} | ${row.lost} | ${wall} | ${floor} | ${ratio} | ${targets} |`);
	}
	return lines.join('\n');
}
