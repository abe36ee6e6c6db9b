// How far n8n lets one workflow know of another's submission: the duplicates the package documents it cannot prevent
// (docs/bulk-items.md, "Where it stops", and New Items Listed Within's hint). A restart empties the process, and
// static data is per workflow: after a restart, a workflow whose saved data cannot hold a submission (it has not run
// since the SKU was submitted; the submitting run was manual or crashed) may create the SKU again while the service
// has not listed it yet, unless a workflow that does hold it ran first in the new process. A submission made with
// New Items Listed Within 0 holds nothing once answered (the user said the service lists at once). Every other
// duplicate is a defect. Told from the history alone (who submitted, who ran and saved, when n8n restarted, which
// window), never from the package's own data.
import type { IDataObject } from 'n8n-workflow';

import type { RequestLogEntry } from '../sandbox';
import { REFUSED_DESIGNER, skuIdentity } from './rows';
import type { RunRecord } from './world';

interface Knowledge {
	/** Workflows whose saved static data may hold the submission. */
	savedBy: Set<number>;
	/** Whether the running process may hold it (since the submission, or since a run of a workflow in `savedBy`). */
	inProcess: boolean;
	/** Items of the SKU the limit explains so far. */
	excused: number;
}

const isCreation = (request: RequestLogEntry) =>
	request.method === 'POST' && request.path.startsWith('/v1/consignments/') && request.status >= 200 && request.status < 300;

/** Runs that read and save the account's submissions: the item creations. */
const createsItems = (record: RunRecord) => record.spec.operation === 'upsert' || record.spec.operation === 'create';

const saves = (record: RunRecord) => createsItems(record) && !record.spec.manual && !record.spec.crash;

/**
 * The node writes the ledger into static data as its run ends (a little before the run's `endedAt`). A run side by
 * side with the submitting one holds the SKU in what it saves when it had the row (it claimed it, or found it
 * claimed), or when it ended clearly after the claim; one that may have saved first is not counted as holding it.
 */
const SAVE_BEFORE_END_MS = 500;

function savedAfterClaim(record: RunRecord, sku: string, claimedAt: number | undefined): boolean {
	if (record.rows.some((row) => row.sku === sku)) return true;
	return claimedAt !== undefined && record.endedAt - SAVE_BEFORE_END_MS >= claimedAt;
}

export class SubmissionReach {
	private readonly known = new Map<string, Knowledge>();

	/** For each SKU, whether the process held its submission when this step's runs started. */
	private heldAtStart = new Map<string, boolean>();

	/** The process is emptied (a restart, a crash). */
	restarted(): void {
		for (const knowledge of this.known.values()) knowledge.inProcess = false;
	}

	/** Before a step's runs: what the process holds as they start. */
	starting(specs: Array<RunRecord['spec']>): void {
		this.heldAtStart = new Map([...this.known].map(([sku, knowledge]) => [sku, knowledge.inProcess]));
		for (const knowledge of this.known.values()) {
			if (specs.some((spec) => (spec.operation === 'upsert' || spec.operation === 'create') && knowledge.savedBy.has(spec.workflow))) knowledge.inProcess = true;
		}
	}

	/**
	 * After a step's runs: whether `count` items of `sku` (more than one) are explained by the limits: one more item
	 * when a run of a workflow whose saved data could not hold the submission created it in a process that did not hold
	 * it either when the step began, and one more when a run beside it had a window of 0 (above).
	 */
	excuses(sku: string, count: number, records: RunRecord[]): boolean {
		const knowledge = this.known.get(sku);
		const creators = records.filter((record) => createsItems(record) && record.rows.some((row) => row.sku === sku));
		const heldAtStart = this.heldAtStart.get(sku) === true;
		// A run with a window of 0 in this step that could send the row (neither the process nor its workflow's saved
		// data held the SKU): its answered creation counts as listed at once, so a run beside it may create the SKU
		// again while the service has not listed it yet.
		const atOnce = !heldAtStart && creators.some((record) => record.spec.windowHours === 0 && !knowledge?.savedBy.has(record.spec.workflow)) ? 1 : 0;
		if (!knowledge) {
			// First submitted in this very step (the order within the step is not known).
			if (!atOnce || count > 2) return false;
			this.known.set(sku, { savedBy: new Set(), inProcess: false, excused: 1 });
			return true;
		}
		if (count <= 1 + knowledge.excused) return true;
		const unaware = creators.length > 0 && !heldAtStart && creators.every((record) => !knowledge.savedBy.has(record.spec.workflow)) ? 1 : 0;
		if (unaware + atOnce === 0 || count > 1 + knowledge.excused + unaware + atOnce) return false;
		knowledge.excused = count - 1;
		return true;
	}

	/** What a step's runs submitted (the process now holds it) and which workflows saved what the process held. */
	played(records: RunRecord[]): void {
		const heldBefore = new Set([...this.known].filter(([, knowledge]) => knowledge.inProcess).map(([sku]) => sku));
		/** SKU → when its first creation of this step reached the service (its claim was made just before). */
		const claimedAt = new Map<string, number>();
		for (const request of records[0]?.requests.filter(isCreation) ?? []) {
			for (const sent of ((request.body as IDataObject | null)?.items as IDataObject[] | undefined) ?? []) {
				// A row the service refuses (in its 207) was never a submission: nothing holds it.
				if (sent.designer === REFUSED_DESIGNER) continue;
				const sku = skuIdentity(sent.vendor_sku);
				if (!claimedAt.has(sku)) claimedAt.set(sku, Date.parse(request.at));
				const knowledge = this.known.get(sku) ?? { savedBy: new Set<number>(), inProcess: false, excused: 0 };
				// New Items Listed Within 0 tells the node the service lists a new item at once: nothing of it is kept, as
				// the field's hint says. Any other window keeps it. Of runs side by side with the row, the history does not
				// say which sent it: if one of them had a window of 0, it may have been that one.
				const withRow = records.filter((record) => createsItems(record) && record.rows.some((row) => row.sku === sku));
				const kept = withRow.length > 0 && withRow.every((record) => record.spec.windowHours !== 0);
				if (kept) knowledge.inProcess = true;
				this.known.set(sku, knowledge);
			}
		}
		for (const [sku, knowledge] of this.known) {
			if (!knowledge.inProcess) continue;
			for (const record of records.filter(saves)) {
				if (heldBefore.has(sku) || savedAfterClaim(record, sku, claimedAt.get(sku))) knowledge.savedBy.add(record.spec.workflow);
			}
		}
		if (records.some((record) => record.spec.crash)) this.restarted();
	}
}
