// Runs histories with fast-check's model-based testing and reports the shrunk failing one as a readable history, with
// the seed and path that replay it. Shared by the jest entry (histories.test.ts) and the CLI (cli.ts).
import fc from 'fast-check';

import { startSandbox } from '../sandbox';
import { HistoryViolation, newModel, StepCommand } from './commands';
import { ALL_FEATURES, type Feature } from './features';
import { setupArbitrary, stepArbitrary } from './generate';
import { WriteLedger } from './ledger';
import { printHistory } from './printer';
import { SubmissionReach } from './reach';
import type { ServiceSetup } from './steps';
import { installHistoryClock, World } from './world';

export interface CheckOptions {
	runs: number;
	seed?: number;
	/** fast-check's replay path of a counterexample (printed with a failure). */
	path?: string;
	features: ReadonlySet<Feature>;
	/** Stop starting new histories (and shrinking) after this long. */
	timeLimitMs?: number;
	maxSteps?: number;
	/** Progress, one line per history. */
	onHistory?: (index: number) => void;
}

export interface CheckReport {
	failed: boolean;
	seed: number;
	/** Histories played in full (shrinking replays not counted). */
	histories: number;
	/** Every history played, shrinking replays included. */
	played: number;
	ms: number;
	text: string;
}

interface Failure {
	setup: ServiceSetup;
	violation: HistoryViolation;
}

export async function checkHistories(options: CheckOptions): Promise<CheckReport> {
	const started = performance.now();
	const restoreClock = installHistoryClock();
	const sandbox = await startSandbox({ port: 0, seed: false });
	const world = new World(sandbox);
	let played = 0;
	let lastFailure: Failure | undefined;
	let inconclusive = 0;
	// The history of the last failure that was not an invariant's (an error of the harness or of n8n).
	let setupSeen: ServiceSetup | undefined;
	let linesSeen: string[] = [];
	const commands = fc.commands(
		[stepArbitrary(options.features).map((step) => new StepCommand(step))],
		{ maxCommands: options.maxSteps ?? 10, size: 'medium' },
	);
	// A history is never cut off mid-way (fast-check's interruptAfterTimeLimit would leave its runs going on while the
	// sandbox closes): past the time limit, histories are not started, and shrinking stops where it got.
	const deadline = options.timeLimitMs === undefined ? Number.POSITIVE_INFINITY : started + options.timeLimitMs;
	let outOfTime = false;
	const property = fc.asyncProperty(setupArbitrary(options.features), commands, async (setup, steps) => {
		if (performance.now() > deadline) {
			outOfTime = true;
			return;
		}
		options.onHistory?.(played);
		played++;
		await world.reset(setup);
		const real = { world, ledger: new WriteLedger(), reach: new SubmissionReach(), setup, features: options.features, lines: [] as string[] };
		try {
			await fc.asyncModelRun(() => ({ model: newModel(), real }), steps);
		} catch (error) {
			// n8n-workflow's safe-regex vm limits a regular expression's wall time (250 ms in n8n; 10 s in the harness,
			// test/harness/regex-engine.ts): on a starved CPU that can run out, which says nothing about the package.
			// The history is counted as inconclusive, not failed.
			if (/Regular expression execution timed out/.test(String((error as Error).message))) {
				inconclusive++;
				return;
			}
			if (error instanceof HistoryViolation) lastFailure = { setup, violation: error };
			else [setupSeen, linesSeen] = [setup, real.lines];
			throw error;
		}
	});
	const seed = options.seed ?? Date.now() ^ (Math.random() * 0x100000000);
	try {
		const details = await fc.check(property, {
			numRuns: options.runs,
			seed,
			...(options.path ? { path: options.path } : {}),
		});
		const ms = Math.round(performance.now() - started);
		const features = [...options.features].join(',');
		if (!details.failed) {
			const text = `${played} histories passed in ${(ms / 1000).toFixed(1)} s (seed ${seed}${outOfTime ? ', stopped by the time limit' : ''}${inconclusive ? `, ${inconclusive} inconclusive: n8n's regular expression timeout on a busy CPU` : ''}; features ${features})`;
			return { failed: false, seed, histories: played, played, ms, text };
		}
		const failure = lastFailure;
		const replay = `npm run test:histories -- --seed ${details.seed} --features ${features === ALL_FEATURES.join(',') ? 'all' : features}`;
		const text = failure
			? [
					`A history broke an invariant (seed ${details.seed}, found after ${details.numRuns} histories, shrunk in ${details.numShrinks} steps):`,
					...failure.violation.violations.map((violation) => `  ✗ ${violation.invariant}: ${violation.detail}`),
					'The history:',
					printHistory(failure.setup, failure.violation.lines),
					`Replay: ${replay}`,
				].join('\n')
			: `The check failed outside the invariants (seed ${details.seed}): ${(details.errorInstance as Error | undefined)?.stack ?? String(details.errorInstance)}\nThe history:\n${printHistory(setupSeen!, linesSeen)}\nReplay: ${replay}`;
		return { failed: true, seed: details.seed, histories: details.numRuns, played, ms, text };
	} finally {
		restoreClock();
		await sandbox.close();
	}
}
