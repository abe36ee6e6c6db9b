// npm run test:histories:trigger -- --runs N [--seed S] [--path P] [--steps N] [--minutes M]
// Plays N random Item Trigger histories against the sandbox and prints the shrunk failing one.
import { checkTriggerHistories } from './check';

function numberOption(name: string): number | undefined {
	const at = process.argv.indexOf(`--${name}`);
	if (at < 0) return undefined;
	const value = Number(process.argv[at + 1]);
	if (!Number.isFinite(value)) throw new Error(`--${name} must be a number, got ${process.argv[at + 1]}`);
	return value;
}

async function main(): Promise<void> {
	const pathAt = process.argv.indexOf('--path');
	const minutes = numberOption('minutes');
	const report = await checkTriggerHistories({
		runs: numberOption('runs') ?? 100,
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
