// Runs Item Trigger histories with fast-check (a setup and a list of steps, shrunk to the shortest failing history)
// and reports the failing one as a readable history with the seed and path that replay it. Shared by the jest entry
// (item-trigger-histories.test.ts) and the CLI (cli.ts).
import fc from 'fast-check';

import { startSandbox } from '../../sandbox';
import { installHistoryClock } from '../world';
import { checkInvariants, type Violation } from './invariants';
import { setupArbitrary, stepArbitrary, type ClockApart, type HistorySetup } from './steps';
import { TriggerWorld } from './world';

/** Only histories whose setup is so (the CLI's --line, --events, --filtered, --clock, --apart): to explore one corner. */
export interface SetupPins {
	line?: HistorySetup['line'];
	events?: HistorySetup['events'];
	/** true: only histories with Only When New Status Is; false: only without. */
	filtered?: boolean;
	serviceClock?: HistorySetup['serviceClock'];
	/** none: the clocks together; hours: apart, with a Date header; undated: apart by minutes, without one. */
	apart?: ClockApartKind;
	/** true: only histories in which n8n restarts with this version after an older one. */
	upgrade?: boolean;
}

export type ClockApartKind = 'none' | 'hours' | 'undated';

const apartKind = ({ seconds, dated }: ClockApart): ClockApartKind => (!dated ? 'undated' : seconds === 0 ? 'none' : 'hours');

const pinned = (pins: SetupPins) => (setup: HistorySetup) =>
	(pins.line === undefined || setup.line === pins.line) &&
	(pins.events === undefined || setup.events === pins.events) &&
	(pins.filtered === undefined || setup.statuses.length > 0 === pins.filtered) &&
	(pins.serviceClock === undefined || setup.serviceClock === pins.serviceClock) &&
	(pins.apart === undefined || apartKind(setup.serviceClockApart) === pins.apart);

/** The CLI options that keep the same histories (a replay needs them). */
const pinsText = (pins: SetupPins = {}) =>
	[
		pins.line && ` --line ${pins.line}`,
		pins.events && ` --events ${pins.events}`,
		pins.filtered === undefined ? '' : pins.filtered ? ' --filtered' : ' --unfiltered',
		pins.serviceClock && ` --clock ${pins.serviceClock}`,
		pins.apart && ` --apart ${pins.apart}`,
		pins.upgrade && ' --upgrade',
	].join('');

export interface TriggerCheckOptions {
	runs: number;
	only?: SetupPins;
	seed?: number;
	path?: string;
	maxSteps?: number;
	/** No history is started after this long (one is never cut off mid-way). */
	timeLimitMs?: number;
	onHistory?: (index: number) => void;
}

export interface TriggerCheckReport {
	failed: boolean;
	seed: number;
	played: number;
	ms: number;
	text: string;
}

class TriggerHistoryViolation extends Error {
	constructor(
		readonly violations: Violation[],
		readonly setup: HistorySetup,
		readonly lines: string[],
	) {
		super(violations.map((v) => `${v.invariant}: ${v.detail}`).join('; '));
	}
}

const EVENTS_TEXT: Record<HistorySetup['events'], string> = { both: 'both', status_changed: 'Status Changed only', new_item: 'New Item only' };

const apartText = ({ seconds, dated }: ClockApart) =>
	`${seconds === 0 ? '' : `, ${Math.abs(seconds)} s ${seconds > 0 ? 'ahead of' : 'behind'} n8n's`}${dated ? '' : ', no Date header'}`;

const printed = (setup: HistorySetup, lines: string[]) =>
	[`  n8n ${setup.line}, ${setup.catalogue === 'small' ? '52 items (one page per listing)' : '272 items (two pages per listing)'}, new items listed ${setup.listingDelaySeconds ? `${setup.listingDelaySeconds} s late` : 'at once'}, the service's clock ${setup.serviceClock === 'perStep' ? 'standing still between waits' : 'running'}${apartText(setup.serviceClockApart)}; Events: ${EVENTS_TEXT[setup.events]}; Only When New Status Is: ${setup.statuses.length ? setup.statuses.join(', ') : 'any'}`, ...lines.map((line) => `  ${line}`)].join('\n');

export async function checkTriggerHistories(options: TriggerCheckOptions): Promise<TriggerCheckReport> {
	const started = performance.now();
	const restoreClock = installHistoryClock();
	const sandbox = await startSandbox({ port: 0 });
	const world = new TriggerWorld(sandbox);
	const deadline = options.timeLimitMs === undefined ? Number.POSITIVE_INFINITY : started + options.timeLimitMs;
	let played = 0;
	let outOfTime = false;
	/** Once a history failed, its shrinking is never cut short by the time limit. */
	let failedOnce = false;
	let last: { setup: HistorySetup; lines: string[]; error: unknown } | undefined;
	const setups = options.only === undefined ? setupArbitrary : setupArbitrary.filter(pinned(options.only));
	const anySteps = fc.array(stepArbitrary, { maxLength: options.maxSteps ?? 16 });
	const stepLists = options.only?.upgrade ? anySteps.filter((drawn) => drawn.some((step) => step.kind === 'upgrade')) : anySteps;
	const property = fc.asyncProperty(setups, stepLists, async (setup, steps) => {
		if (!failedOnce && performance.now() > deadline) {
			outOfTime = true;
			return;
		}
		options.onHistory?.(played);
		played++;
		try {
			await world.reset(setup);
			await world.play(setup.firstActivation);
			for (const step of steps) await world.play(step);
			await world.settle();
		} catch (error) {
			failedOnce = true;
			last = { setup, lines: [...world.lines], error };
			throw error;
		}
		const violations = checkInvariants(world.ledger);
		if (violations.length > 0) {
			failedOnce = true;
			last = { setup, lines: [...world.lines], error: undefined };
			throw new TriggerHistoryViolation(violations, setup, [...world.lines]);
		}
	});
	const seed = options.seed ?? Date.now() ^ (Math.random() * 0x100000000);
	try {
		const details = await fc.check(property, { numRuns: options.runs, seed, ...(options.path ? { path: options.path } : {}) });
		const ms = Math.round(performance.now() - started);
		if (!details.failed) {
			return { failed: false, seed, played, ms, text: `${played} Item Trigger histories passed in ${(ms / 1000).toFixed(1)} s (seed ${seed}${outOfTime ? ', stopped by the time limit' : ''})` };
		}
		const error = details.errorInstance;
		const replay = `npm run test:histories:trigger -- --seed ${details.seed} --path ${details.counterexamplePath}${pinsText(options.only)}`;
		const text =
			error instanceof TriggerHistoryViolation
				? [
						`An Item Trigger history broke an invariant (seed ${details.seed}, after ${details.numRuns} histories, shrunk in ${details.numShrinks} steps):`,
						...error.violations.map((v) => `  ✗ ${v.invariant}: ${v.detail}`),
						'The history (=> what each step announced; the last steps settle it):',
						printed(error.setup, error.lines),
						`Replay: ${replay}`,
					].join('\n')
				: [
						`An Item Trigger history failed outside the invariants (seed ${details.seed}): ${(error as Error | undefined)?.stack ?? String(error)}`,
						...(last ? ['The history:', printed(last.setup, last.lines)] : []),
						`Replay: ${replay}`,
					].join('\n');
		return { failed: true, seed: details.seed, played, ms, text };
	} finally {
		restoreClock();
		await sandbox.close();
	}
}
