// A history as a user would tell it: one line per step, the rows of each run, the faults the service threw in.
import { describeItemRow, SKU_POOL } from './rows';
import type { FaultChoice, RunSpec, ServiceSetup, Step } from './steps';

const OPERATION_NAMES: Record<RunSpec['operation'], string> = {
	upsert: 'Item → Create or Update',
	create: 'Item → Create',
	itemUpdate: 'Item → Update',
	addressCreate: 'Address → Create',
	addressUpdate: 'Address → Update',
	addressDelete: 'Address → Delete',
	orderCancel: 'Order → Cancel',
};

export const workflowName = (workflow: number) => `workflow ${String.fromCharCode(65 + workflow)}`;

function faultText(fault: FaultChoice): string {
	switch (fault.kind) {
		case 'dropWrite':
			return `the connection of write #${fault.skip + 1} breaks before the service gets it`;
		case 'lostAnswer':
			return `write #${fault.skip + 1} is carried out but its answer is lost (timeout)`;
		case 'serverError':
			return `${fault.method} #${fault.skip + 1} gets a 503`;
		case 'tooManyRequests':
			return `${fault.count} request(s) get a 429`;
		case 'refusal':
			return `write #${fault.skip + 1} is refused (422)`;
	}
}

export function describeRun(run: RunSpec, nodeName: string): string {
	const where = `${workflowName(run.workflow)}, node "${nodeName}"`;
	const rows =
		run.operation === 'addressCreate' || run.operation === 'addressUpdate' || run.operation === 'addressDelete'
			? `streets [${run.streets.join(', ')}]`
			: run.operation === 'orderCancel'
				? `orders of [${run.orders.map((sku) => SKU_POOL[sku]).join(', ')}]`
				: `rows [${run.items.map(describeItemRow).join(', ')}]`;
	const options = [
		run.manual ? 'manual run' : 'production run',
		...(run.operation === 'upsert'
			? [
					run.onlySendWhatChanged === 'default' ? 'a new node (version 1.3, columns mapped automatically), Only Send What Changed left at its default (on)' : `Only Send What Changed ${run.onlySendWhatChanged}`,
					run.windowHours === undefined ? 'window at its default' : `New Items Listed Within ${run.windowHours} h`,
					...(run.mirror ? ['mirror (Set Their Quantity to 0)'] : []),
				]
			: []),
		run.continueOnFail ? 'Continue On Fail' : 'stops on a failure',
		...run.faults.map(faultText),
		...(run.crash ? ['the process dies as the run ends (static data not saved)'] : []),
	];
	return `${OPERATION_NAMES[run.operation]} (${where}): ${rows}; ${options.join('; ')}`;
}

/** `nameOf` gives a node's name at the time of the step (renames change it). */
export function describeStep(step: Step, nameOf: (run: RunSpec) => string): string {
	switch (step.kind) {
		case 'run':
			return describeRun(step.run, nameOf(step.run));
		case 'overlap':
			return `overlapping, started ${step.gapMs} ms apart:\n${step.runs.map((run) => `      - ${describeRun(run, nameOf(run))}`).join('\n')}`;
		case 'restart':
			return 'n8n restarts (process memory gone, saved static data kept)';
		case 'time':
			return `${step.seconds >= 3600 ? `${step.seconds / 3600} h` : `${step.seconds} s`} pass`;
		case 'rename':
			return `the user renames ${workflowName(step.workflow)}'s Create or Update node ${step.node + 1}`;
		case 'approve':
			return `the marketplace approves ${SKU_POOL[step.sku]}`;
		case 'purchase':
			return `a buyer purchases ${SKU_POOL[step.sku]}`;
		case 'outsideEdit':
			return `someone changes the ${step.field === 'msrp' ? 'MSRP' : 'price'} of ${SKU_POOL[step.sku]} in the portal (to v${step.version}'s)`;
	}
}

export function describeSetup(setup: ServiceSetup): string {
	return `the service lists new items ${setup.listingDelaySeconds} s after accepting them${setup.numericSkusAsNumbers ? ', and lists digit-only SKUs as JSON numbers' : ''}`;
}

/** The numbered history, as printed with a failure. */
export function printHistory(setup: ServiceSetup, lines: string[]): string {
	return [`  0. ${describeSetup(setup)}`, ...lines.map((line, index) => `  ${index + 1}. ${line}`)].join('\n');
}
