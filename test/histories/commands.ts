// Each step of a history as a fast-check command: `check` keeps a history meaningful (Item → Create only of SKUs
// never sent; Update/Delete of addresses that were created), `run` plays it in the world and checks the invariants.
import type fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { noDuplicates, checkRun, type Violation } from './invariants';
import type { Feature } from './features';
import type { WriteLedger } from './ledger';
import { describeStep } from './printer';
import type { SubmissionReach } from './reach';
import { itemRow, SKU_POOL, skuIdentity } from './rows';
import type { RunSpec, ServiceSetup, Step } from './steps';
import type { RunRecord, World } from './world';

/** What the history did so far, as far as the generator needs it. */
export interface Model {
	/** Pool SKUs some run sent: Item → Create is for new SKUs only. */
	sentSkus: Set<number>;
	/** Streets of the address rows created so far, in order; the next new one. */
	streets: number[];
	nextStreet: number;
}

export interface Real {
	world: World;
	features: ReadonlySet<Feature>;
	ledger: WriteLedger;
	/** What each workflow can know of a submission across restarts (the documented limit). */
	reach: SubmissionReach;
	setup: ServiceSetup;
	/** The history so far, one readable line per step. */
	lines: string[];
}

export class HistoryViolation extends Error {
	constructor(
		readonly violations: Violation[],
		readonly lines: string[],
	) {
		super(violations.map((violation) => `${violation.invariant}: ${violation.detail}`).join('\n'));
		this.name = 'HistoryViolation';
	}
}

export const newModel = (): Model => ({ sentSkus: new Set(), streets: [], nextStreet: 1 });

/**
 * Placeholders made concrete: new street numbers for Address → Create, created ones for Update and Delete; Only Send
 * What Changed as the history has it, unless settings may change between runs.
 */
function resolve(generated: RunSpec, model: Model, real: Real): RunSpec {
	const run =
		generated.onlySendWhatChanged === 'default' || real.features.has('settingChanges') ? generated : { ...generated, onlySendWhatChanged: real.setup.onlySendWhatChanged };
	if (run.operation === 'addressCreate') return { ...run, streets: run.streets.map(() => model.nextStreet++) };
	if (run.operation === 'addressUpdate' || run.operation === 'addressDelete') {
		return { ...run, streets: [...new Set(run.streets.map((index) => model.streets[index % model.streets.length]))] };
	}
	return run;
}

function usable(run: RunSpec, model: Model): boolean {
	if (run.operation === 'create') return run.items.every((row) => !model.sentSkus.has(row.sku));
	if (run.operation === 'addressUpdate' || run.operation === 'addressDelete') return model.streets.length > 0;
	return true;
}

export class StepCommand implements fc.AsyncCommand<Model, Real> {
	private line: string | undefined;

	constructor(readonly step: Step) {}

	check(model: Readonly<Model>): boolean {
		if (this.step.kind === 'run') return usable(this.step.run, model as Model);
		if (this.step.kind === 'overlap') return this.step.runs.every((run) => usable(run, model as Model));
		return true;
	}

	async run(model: Model, real: Real): Promise<void> {
		const step = this.resolved(model, real);
		this.line = describeStep(step, (run) => real.world.nodeName(run));
		real.lines.push(this.line);
		const started = performance.now();
		await this.play(step, real);
		if (process.env.HISTORY_DEBUG) console.error(`${Math.round(performance.now() - started)} ms  ${this.line}`);
	}

	private async play(step: Step, real: Real): Promise<void> {
		switch (step.kind) {
			case 'run':
				real.reach.starting([step.run]);
				await this.played(real, await real.world.runGroup([step.run], 0, 0));
				break;
			case 'overlap':
				real.reach.starting(step.runs);
				await this.played(real, await real.world.runGroup(step.runs, step.gapMs, 40));
				break;
			case 'restart':
				real.world.restartProcess();
				real.reach.restarted();
				break;
			case 'time':
				real.world.advanceTime(step.seconds);
				break;
			case 'rename':
				real.world.rename(step.workflow, step.node);
				break;
			default:
				await marketplace(step, real);
		}
	}

	toString(): string {
		return this.line ?? JSON.stringify(this.step);
	}

	private resolved(model: Model, real: Real): Step {
		const note = (run: RunSpec) => {
			if (run.operation === 'upsert' || run.operation === 'create') for (const row of run.items) model.sentSkus.add(row.sku);
			if (run.operation === 'addressCreate') model.streets.push(...run.streets);
			return run;
		};
		if (this.step.kind === 'run') return { ...this.step, run: note(resolve(this.step.run, model, real)) };
		if (this.step.kind === 'overlap') return { ...this.step, runs: this.step.runs.map((run) => note(resolve(run, model, real))) };
		return this.step;
	}

	/** The invariants after the runs; then the ledger learns who wrote what. */
	private async played(real: Real, records: RunRecord[]): Promise<void> {
		const after = records[0].after;
		const excused = (sku: string, count: number) => real.reach.excuses(sku, count, records);
		const violations = [...noDuplicates(after, excused), ...records.flatMap((record) => checkRun(record, real.ledger))];
		real.reach.played(records);
		const by = records.length === 1 ? records[0].nodeKey : 'overlapping runs';
		// Only Send What Changed remembers a write in static data, which n8n saves for a production run that ends.
		const [only] = records;
		const remembered = records.length === 1 && only.spec.operation === 'upsert' && only.spec.onlySendWhatChanged !== 'off' && !only.spec.crash && !only.spec.manual;
		real.ledger.record(records[0].requests, after, by, Date.now(), remembered);
		if (violations.length > 0) {
			// The failing step's requests as the service saw them: a race that replays differently can still be read.
			const seen = records[0].requests.map((request) => `      ${request.method} ${request.path} → ${request.status}${request.fault ? ` (${request.fault})` : ''} ${JSON.stringify(request.body ?? '').slice(0, 80)}`);
			const said = records.map((record) => `      ${record.label}: ${record.outputs.map((output) => `${String(output.vendor_sku ?? '')} ${String(output.operation ?? output.status ?? '')}`).join(', ')}${record.error ? `; error: ${record.error.message.slice(0, 200)}` : ''}`);
			const detail = ['     what the service saw in that step:', ...seen, '     what the runs said:', ...said].join('\n');
			throw new HistoryViolation(violations, [...real.lines.slice(0, -1), `${real.lines[real.lines.length - 1]}\n${detail}`]);
		}
	}
}

/** What the marketplace, a buyer or the portal does to a pool SKU's item (nothing when it has none). */
async function marketplace(step: Extract<Step, { kind: 'approve' | 'purchase' | 'outsideEdit' }>, real: Real): Promise<void> {
	const { admin } = real.world.sandbox;
	const item = (await admin.state()).items.find((candidate) => skuIdentity(candidate.vendor_sku) === skuIdentity(SKU_POOL[step.sku]));
	if (!item) return;
	if (step.kind === 'approve' && item.validation_status !== 'approved') await admin.setItemStatus(item.item_id, 'approved');
	if (step.kind === 'purchase' && item.validation_status === 'approved' && item.quantity > 0) {
		// Delivered nowhere: the history reads the order from the service's state.
		await admin.emitEvent({ operation: 'item_purchased', data: { item_id: item.item_id }, url: 'http://127.0.0.1:9/' });
	}
	if (step.kind === 'outsideEdit' && item.validation_status !== 'approved') {
		// The MSRP, which the listings do not show, or the price, which they do; the other fields as the service holds them.
		const edited = itemRow({ sku: step.sku, form: 'text', version: step.version });
		const body = {
			vendor_sku: item.vendor_sku,
			taxon_permalink: item.taxon,
			condition: item.condition,
			with_tags: item.with_tags,
			designer: item.designer,
			image: item.image,
			quantity: item.quantity,
			msrp: step.field === 'msrp' ? edited.msrp : item.msrp,
			price: step.field === 'price' ? edited.price : item.price,
			gender: item.gender,
			taxon_specific_attributes: item.taxon_specific_attributes,
		};
		await portalPatch(real, item.item_id, body);
		real.ledger.set(item.item_id, { by: 'outside', at: Date.now(), values: body });
	}
}

async function portalPatch(real: Real, itemId: number, body: IDataObject): Promise<void> {
	const { sandbox } = real.world;
	const exchange = await fetch(`${sandbox.authUrl}/api/v1/bearer-token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret }),
	});
	const { bearer_token: token } = (await exchange.json()) as { bearer_token: string };
	const answer = await fetch(`${sandbox.baseUrl}/v1/items/${itemId}`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
		body: JSON.stringify(body),
	});
	if (!answer.ok) throw new Error(`the portal edit of item ${itemId} failed: ${answer.status} ${await answer.text()}`);
}
