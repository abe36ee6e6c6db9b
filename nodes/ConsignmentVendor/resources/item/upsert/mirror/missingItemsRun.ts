/**
 * The one object Create or Update's hooks talk to when "Listed Items Not in the Input" is Report Them or Set Their
 * Quantity to 0, in the order of a run: the input checked for being whole, the catalogue read in full (the read
 * the operation makes anyway), the plan and its guard (before any write), and after the rows, the missing items'
 * writes and outputs. The operation (upsert.ts) hands it how the catalogue is read and how a row's SKU is read, so
 * the mirror reaches down only.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeApiError } from '../../../../../shared/errors';
import type { Row } from '../../helpers/batchRunner';
import { OutcomeTally } from '../../helpers/runSummary';
import type { ItemCatalog, readItemCatalog } from '../itemCatalog';
import { guardCounts, guardError, guardVerdict, NOTHING_WRITTEN, planMissingItems, refuseInputThatCannotBeWhole, type MissingItemsPlan } from './missingItems';
import { missingItemsSettingsOf, type MissingItemsSettings } from './missingItemsFields';
import { settleMissingItems, type MissingItemOutput } from './missingItemsWrite';
import { ZeroedItemsMemory } from './zeroedItemsMemory';
import { InputSkus } from '../../helpers/skuText';

/** What the mirror is given by the operation (upsert.ts). */
export interface MissingItemsParts {
	/** The item listings (itemCatalog.ts), read here in full. */
	readCatalog: typeof readItemCatalog;
	/** The SKU an input item names, before it is checked (helpers/itemPayload.ts); undefined when it names none. */
	enteredSku(context: IExecuteFunctions, itemIndex: number): string | undefined;
}

export class MissingItemsRun {
	private present: InputSkus | undefined;

	private plan: MissingItemsPlan | undefined;

	private guardStops: string | undefined;

	private constructor(
		private readonly settings: MissingItemsSettings,
		private readonly memory: ZeroedItemsMemory,
		private readonly parts: MissingItemsParts,
	) {}

	/** Undefined for Leave Them: the operation then behaves as it always did. */
	static of(context: IExecuteFunctions, parts: MissingItemsParts): MissingItemsRun | undefined {
		const settings = missingItemsSettingsOf(context);
		if (!settings) return undefined;
		refuseInputThatCannotBeWhole(context, settings);
		return new MissingItemsRun(settings, ZeroedItemsMemory.of(context), parts);
	}

	/**
	 * n8n runs no node that has no input item; a source node set to Always Output Data hands on one empty item when
	 * its read found nothing. That is a source of 0 rows, for the guard to judge, not a row missing its SKU.
	 */
	isEmptySource(context: IExecuteFunctions): boolean {
		const items = context.getInputData();
		if (items.length !== 1 || Object.keys(items[0].json ?? {}).length > 0 || items[0].binary) return false;
		try {
			return this.parts.enteredSku(context, 0) === undefined;
		} catch {
			return false;
		}
	}

	/** A source of 0 rows: every listed item is missing (the guard stops this unless set to allow it). */
	async runWithoutRows(context: IExecuteFunctions, preview: boolean): Promise<INodeExecutionData[][]> {
		this.present = new InputSkus([]);
		await this.decide(context, preview);
		const outputs = await this.outputs(context, preview);
		const tally = new OutcomeTally();
		tally.add('no rows');
		for (const { outcome } of outputs) tally.add(outcome);
		tally.show(context, preview);
		const emptyItem = { json: { operation: 'no rows', message: 'The input was one empty item: the source had no rows' }, pairedItem: { item: 0 } };
		return [[emptyItem, ...outputs.map(({ json }) => ({ json }))]];
	}

	/** Every SKU the input names, refused rows' included (set by `takeInput`). */
	get inputSkus(): InputSkus | undefined {
		return this.present;
	}

	/**
	 * Before any request: every SKU the input names, the checked rows' and those of rows refused under Continue On Fail,
	 * which still exist (a row without one refuses the run).
	 */
	takeInput(context: IExecuteFunctions, rows: Row[]): void {
		const skus = rows.map((row): string => row.payload.vendor_sku);
		const checked = new Set(rows.map((row) => row.itemIndex));
		const count = context.getInputData().length;
		for (let itemIndex = 0; itemIndex < count; itemIndex++) {
			if (checked.has(itemIndex)) continue;
			let sku: string | undefined;
			try {
				sku = this.parts.enteredSku(context, itemIndex);
			} catch {
				sku = undefined;
			}
			if (sku === undefined) {
				throw new NodeOperationError(context.getNode(), `Item index ${itemIndex} has no vendor_sku: with "Listed Items Not in the Input" set, every input item must name its SKU, or the listed item of that SKU would count as missing`, {
					itemIndex,
					description: `${NOTHING_WRITTEN} Give the row its vendor_sku or remove it (an empty sheet read that outputs one empty item shows this too).`,
				});
			}
			skus.push(sku);
		}
		this.present = new InputSkus(skus);
	}

	/** Both listings in full, whatever their cost and whether or not a row needs them; a failed read stops the run. */
	private async readCatalog(context: IExecuteFunctions): Promise<ItemCatalog> {
		let catalog: ItemCatalog | undefined;
		try {
			catalog = await this.parts.readCatalog(context, Number.POSITIVE_INFINITY, { whole: true });
		} catch (error) {
			const mapped = toNodeApiError(context.getNode(), error, { method: 'GET' });
			mapped.description = `Nothing was created or changed: the item listings could not be read in full, so which listed items the input lacks is unknown. ${mapped.description ?? ''}`.trim();
			throw mapped;
		}
		if (!catalog?.nonApprovedComplete || !catalog.approvedComplete) {
			throw new NodeOperationError(context.getNode(), 'The item listings were not read in full', { description: 'Nothing was created or changed.' });
		}
		return catalog;
	}

	/**
	 * The catalogue read, the missing items, and the guard: it throws here, before the run's first write (a preview
	 * only notes it). The catalogue is then the rows' too.
	 */
	async decide(context: IExecuteFunctions, preview: boolean): Promise<ItemCatalog> {
		const catalog = await this.readCatalog(context);
		this.plan = planMissingItems(catalog, this.present ?? new InputSkus([]), this.settings, this.memory);
		const verdict = guardVerdict(this.plan, this.settings);
		if (verdict && !preview) throw guardError(context, verdict);
		this.guardStops = verdict?.message;
		return catalog;
	}

	/** After the rows: the writes (none in a preview) and one output item per missing item. */
	async outputs(context: IExecuteFunctions, preview: boolean): Promise<MissingItemOutput[]> {
		if (!this.plan) return [];
		const outputs = await settleMissingItems(context, this.plan, preview, this.memory);
		// A preview the guard would stop says so on every item it lists, and in the run summary; otherwise each item
		// set to 0 says what the guard counted.
		const counts = `Within the guard: ${guardCounts(this.plan)}`;
		outputs.forEach((output, position) => {
			if (this.guardStops) output.json.guard = this.guardStops;
			else if (this.plan?.missing[position].action === 'setToZero') output.json.guard = counts;
			if (this.guardStops && output.outcome === 'would set to 0') output.outcome = 'would set to 0, but the guard stops the run';
		});
		return outputs;
	}
}
