/**
 * One run of Create or Update, as an object: what it knows (the account's ledger, Only Send What Changed's memory, each
 * row's fingerprint, the mirror) and what happens to the rows, in the order the batched runner calls it: `settle`
 * decides every row before the batches, `creations` sends the new ones through the ledger, `finish` saves the memory,
 * `mirrorOutputs` adds the listed items no row has. A preview reads every memory and changes none.
 *
 * It is given its parts by the operation (upsert.ts) and imports only leaves: the walk of a row goes down from here
 * (the catalogue, the row's decision, its PATCH or its batch), never back up to an operation file.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { requestSettingsOf } from '../../../../shared/transport';
import type { Batched, ExtraOutput, Row, RowResult } from '../helpers/batchRunner';
import type { OtherOutcomes } from '../helpers/batchFailures';
import { mapConcurrently } from '../../../shared/concurrency';
import type { PendingCreation } from '../helpers/itemCreations';
import { ledgeredCreations } from '../helpers/ledgeredCreations';
import { InputSkus } from '../helpers/skuText';
import type { SubmissionLedger } from '../helpers/submissionLedger';
import type { readItemCatalog, shownSkus } from './itemCatalog';
import type { MissingItemsRun } from './mirror/missingItemsRun';
import { missingItemsInError } from './mirror/missingItemsWrite';
import type { DecideRow } from './rowDecision';
import { unchangedResult, type Outcome } from './rowOutcomes';
import { SentMemory } from './sentMemory';

/** What a run is given by the operation (upsert.ts wires them together). */
export interface UpsertParts {
	/** The account's ledger, opened for this run (a preview's reads it and changes nothing in it). */
	ledger: SubmissionLedger;
	/** New Items Listed Within, in ms: how long this run's submissions hold their rows back. */
	windowMs: number;
	/** The mirror (Report Them / Set Their Quantity to 0); undefined for Leave Them. */
	mirror: MissingItemsRun | undefined;
	/** How new items are sent (helpers/itemCreations.ts, as Item Create's); the run sends them through the ledger. */
	creations: Batched<PendingCreation>;
	/** The listings, read once when cheaper than a lookup per row, and the SKUs they show (itemCatalog.ts). */
	readCatalog: typeof readItemCatalog;
	shownSkus: typeof shownSkus;
	/** What happens to one row (rowDecision.ts). */
	decideRow: DecideRow;
	/** The row as a creation would submit it (rowFingerprint.ts): what the memory and the ledger call "the same row". */
	fingerprint(context: IExecuteFunctions, row: Row): string;
}

export class UpsertRun {
	/** Only Send What Changed's memory; undefined when the option is off. Opened once the rows are read. */
	private memory: SentMemory | undefined;

	/** Input item → its row's fingerprint: what the memory and the ledger call "the same row". */
	private readonly fingerprints = new Map<number, string>();

	/** The new items' batches: through the account's ledger, each answer labelled "created" and remembered. */
	readonly creations: Batched<PendingCreation>;

	private readonly ledger: SubmissionLedger;

	private readonly mirror: MissingItemsRun | undefined;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly parts: UpsertParts,
		private readonly preview: boolean,
	) {
		this.ledger = parts.ledger;
		this.mirror = parts.mirror;
		const submissions = ledgeredCreations(parts.creations, parts.ledger, parts.windowMs, (row) => this.fingerprints.get(row.itemIndex));
		this.creations = {
			...submissions,
			send: async (sendContext, rows) => this.created(rows, await submissions.send(sendContext, rows)),
		};
	}

	/** Every row's result, or the creation it joins, in input order (the memory keeps the most recently sent SKUs). */
	async settle(context: IExecuteFunctions, rows: Row[]): Promise<Array<RowResult | { batch: PendingCreation }>> {
		const memory = this.openMemory(context);
		for (const row of rows) this.fingerprints.set(row.itemIndex, this.parts.fingerprint(context, row));
		const confirmedAsIs = (row: Row) => memory?.unchanged(row.payload.vendor_sku, this.fingerprintOf(row)) === true;
		// Now and then the rows the memory would skip are checked against the service too (a deleted item is sent again).
		const verifying = memory?.verificationDue() === true;
		const skipped = (row: Row) => !verifying && confirmedAsIs(row);
		this.mirror?.takeInput(context, rows);
		const indexReadAt = Date.now();
		// The mirror reads the listings in full and checks its guard here, before the first write; otherwise they are read
		// once when cheaper than looking every row up (itemCatalog.ts).
		const index = this.mirror
			? await this.mirror.decide(context, this.preview)
			: await this.parts.readCatalog(context, rows.filter((row) => !skipped(row)).length);
		// Listings read in full settle the memory: created items they show are confirmed, SKUs they do not show dropped.
		const shown = this.parts.shownSkus(index);
		if (memory && shown) memory.reconcile(shown);
		// Every SKU of the input (the mirror's: refused rows' too): a listed number several rows could be is refused for each.
		const input = this.mirror?.inputSkus ?? new InputSkus(rows.map((row) => row.payload.vendor_sku));
		const outcomes = await mapConcurrently(rows, requestSettingsOf(context).maxConcurrent, async (row): Promise<Outcome> => {
			if (skipped(row)) return unchangedResult(row.payload.vendor_sku, this.preview);
			const rowMemory = {
				submittedBefore: memory?.submitted(row.payload.vendor_sku, this.fingerprintOf(row)) === true,
				memoryVouches: confirmedAsIs(row),
				ledger: this.ledger,
				fingerprint: this.fingerprintOf(row),
				indexReadAt,
			};
			return await this.parts.decideRow(context, row, index, rowMemory, this.preview, input);
		});
		if (verifying && !this.preview) memory?.markVerified();
		return outcomes.map((outcome, position) => this.settled(rows[position], outcome));
	}

	/** Called once every row of a real run has its result. */
	finish(): void {
		this.memory?.save();
	}

	/** The mirror's output items (the listed items no row has), and how the failed-rows error tells of them. */
	async mirrorOutputs(): Promise<{ outputs: ExtraOutput[]; inError: OtherOutcomes } | undefined> {
		if (!this.mirror) return undefined;
		const outputs = await this.mirror.outputs(this.context, this.preview);
		return { outputs, inError: missingItemsInError(outputs) };
	}

	/** The run is over, whatever happened: the ledger saved, the memory let go of (saved by `finish` if it got there). */
	end(): void {
		if (!this.preview) this.ledger.save();
		this.memory?.release();
	}

	private openMemory(context: IExecuteFunctions): SentMemory | undefined {
		this.memory = (context.getNodeParameter('onlySendWhatChanged', 0, false) as boolean)
			? SentMemory.of(context, context.getNodeParameter('forgetWhatWasSent', 0, false) as boolean)
			: undefined;
		return this.memory;
	}

	private fingerprintOf(row: Row): string {
		return this.fingerprints.get(row.itemIndex)!;
	}

	/** A decided row: the item the service shows is the row as sent (no request), or its result is remembered. */
	private settled(row: Row, outcome: Outcome): RowResult | { batch: PendingCreation } {
		if ('batch' in outcome) return outcome;
		if (outcome.ok === 'shown') {
			this.memory?.confirm(row.payload.vendor_sku);
			return unchangedResult(row.payload.vendor_sku, this.preview);
		}
		if (!this.preview) this.remember(row, outcome, false);
		return outcome;
	}

	/** A creation batch's answers: labelled "created", remembered. */
	private created(rows: PendingCreation[], results: Map<number, RowResult>): Map<number, RowResult> {
		const rowAt = new Map(rows.map((row) => [row.itemIndex, row]));
		for (const [itemIndex, result] of results) {
			if (result.ok === true) results.set(itemIndex, { ...result, json: { operation: 'created', ...result.json } });
			this.remember(rowAt.get(itemIndex)!, result, true);
		}
		return results;
	}

	/**
	 * Only what the service accepted is remembered, and a creation as submitted only: it is not a reason to skip the row
	 * until the service shows the item.
	 */
	private remember(row: Row, result: RowResult, created: boolean): void {
		if (result.ok === 'noRequest' || !this.memory) return;
		const sku = row.payload.vendor_sku;
		if (!result.ok || result.unconfirmed) this.memory.forget(sku);
		else if (created) this.memory.rememberSubmitted(sku, this.fingerprintOf(row));
		else this.memory.rememberConfirmed(sku, this.fingerprintOf(row));
	}
}
