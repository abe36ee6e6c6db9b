// npm run test:histories:trigger -- --runs N [--seed S] [--path P] [--steps N] [--minutes M]
//   [--line 1.x|2.x] [--events both|status_changed|new_item] [--filtered | --unfiltered] [--clock running|perStep]
//   [--apart none|hours|undated] [--upgrade]
// Plays N random Item Trigger histories against the sandbox and prints the shrunk failing one; the last options keep
// only the histories of one corner (a replay needs the same ones).
import { checkTriggerHistories, type SetupPins } from './check';

function numberOption(name: string): number | undefined {
	const at = process.argv.indexOf(`--${name}`);
	if (at < 0) return undefined;
	const value = Number(process.argv[at + 1]);
	if (!Number.isFinite(value)) throw new Error(`--${name} must be a number, got ${process.argv[at + 1]}`);
	return value;
}

function textOption<T extends string>(name: string, values: readonly T[]): T | undefined {
	const at = process.argv.indexOf(`--${name}`);
	if (at < 0) return undefined;
	const value = process.argv[at + 1] as T;
	if (!values.includes(value)) throw new Error(`--${name} must be one of ${values.join(', ')}, got ${value}`);
	return value;
}

function pins(): SetupPins | undefined {
	const only: SetupPins = {
		line: textOption('line', ['1.x', '2.x'] as const),
		events: textOption('events', ['both', 'status_changed', 'new_item'] as const),
		filtered: process.argv.includes('--filtered') ? true : process.argv.includes('--unfiltered') ? false : undefined,
		serviceClock: textOption('clock', ['running', 'perStep'] as const),
		apart: textOption('apart', ['none', 'hours', 'undated'] as const),
		upgrade: process.argv.includes('--upgrade') ? true : undefined,
	};
	return Object.values(only).some((value) => value !== undefined) ? only : undefined;
}

async function main(): Promise<void> {
	const pathAt = process.argv.indexOf('--path');
	const minutes = numberOption('minutes');
	const report = await checkTriggerHistories({
		runs: numberOption('runs') ?? 100,
		only: pins(),
		seed: numberOption('seed'),
		path: pathAt >= 0 ? process.argv[pathAt + 1] : undefined,
		maxSteps: numberOption('steps'),
		timeLimitMs: minutes === undefined ? undefined : minutes * 60_000,
		onHistory: (index) => {
			if (index > 0 && index % 25 === 0) process.stderr.write(`${index} histories played\n`);
		},
	});
	console.log(report.text);
	process.exitCode = report.failed ? 1 : 0;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 2;
});
