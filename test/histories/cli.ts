// npm run test:histories -- --runs N [--seed S] [--path P] [--features all|default|a,b|+a,-b] [--steps N] [--minutes M]
// Plays N random histories against the sandbox (no time limit unless --minutes) and prints the shrunk failing one.
import { FEATURES, OFF_BY_DEFAULT, parseFeatures } from './features';
import { checkHistories } from './check';

function option(name: string): string | undefined {
	const at = process.argv.indexOf(`--${name}`);
	return at >= 0 ? process.argv[at + 1] : undefined;
}

function numberOption(name: string): number | undefined {
	const text = option(name);
	if (text === undefined) return undefined;
	const value = Number(text);
	if (!Number.isFinite(value)) throw new Error(`--${name} must be a number, got ${text}`);
	return value;
}

async function main(): Promise<void> {
	if (process.argv.includes('--help')) {
		console.log('Options: --runs N (default 100), --seed S, --path P, --features all|default|a,b|+a,-b, --steps N, --minutes M\nFeatures:');
		for (const [name, what] of Object.entries(FEATURES)) console.log(`  ${name}: ${what}${name in OFF_BY_DEFAULT ? ` [off by default: ${OFF_BY_DEFAULT[name as keyof typeof FEATURES]}]` : ''}`);
		return;
	}
	const features = parseFeatures(option('features'));
	const runs = numberOption('runs') ?? 100;
	const minutes = numberOption('minutes');
	const report = await checkHistories({
		runs,
		seed: numberOption('seed'),
		path: option('path'),
		features,
		maxSteps: numberOption('steps'),
		timeLimitMs: minutes === undefined ? undefined : minutes * 60_000,
		onHistory: (index) => {
			if (index > 0 && index % 50 === 0) process.stderr.write(`${index} histories played\n`);
		},
	});
	console.log(report.text);
	console.log(`(${report.played} histories played in all, shrinking included, in ${(report.ms / 1000).toFixed(1)} s)`);
	process.exitCode = report.failed ? 1 : 0;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 2;
});
