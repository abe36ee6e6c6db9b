// What a run told the user about each input row (its output item, or the error that stopped the node), and what the
// service did for that row (its request log). The invariants compare the two.
import type { IDataObject } from 'n8n-workflow';

import type { RequestLogEntry } from '../sandbox';
import { skuIdentity, streetOf } from './rows';
import type { RunRecord } from './world';

/**
 * `done`: the row says it was carried out; `nothing`: it says nothing was written for it; `unknown`: it says the
 * outcome is unknown (or unconfirmed); `awaiting`/`unchanged`: no request, with that reason; `notApplied`: an approved
 * item that takes none of the row's fields.
 */
export type Told = 'done' | 'nothing' | 'unknown' | 'awaiting' | 'unchanged' | 'notApplied';

/** A failure whose write may have been carried out, in any wording the package uses. */
const UNKNOWN_OUTCOME = /outcome unknown|outcome is unknown|may have been (created|carried out|applied)|may or may not/i;

/** "item index 0-9, 12" → [0..9, 12]. */
function indexesIn(ranges: string): number[] {
	return ranges.split(',').flatMap((part) => {
		const [from, to] = part.trim().split('-').map(Number);
		if (!Number.isInteger(from)) return [];
		return Array.from({ length: (Number.isInteger(to) ? to : from) - from + 1 }, (_, offset) => from + offset);
	});
}

export const errorText = (record: RunRecord) => (record.error ? `${record.error.message}\n${record.error.description}` : '');

/** Rows an error names as carried out ("… carried out before this failure (item index 0-9) …"). */
function carriedOutIndexes(text: string): Set<number> {
	// The runner's own sentence ("3 of the 40 items were carried out (item index 0-2)"), not any "carried out" before a
	// parenthesis ("…may have been carried out: check… Outcome unknown: 1 item (item index 0)").
	const match = /items? were carried out \(item index ([\d,\s-]+)\)/i.exec(text);
	return new Set(match ? indexesIn(match[1]) : []);
}

/** Rows the batched runner's error names as sent ("The other 2 item(s) were sent to the service (item index 0, 2)"). */
function sentIndexes(text: string): Set<number> {
	const match = /were sent to the service \(item index ([\d,\s-]+)\)/i.exec(text);
	return new Set(match ? indexesIn(match[1]) : []);
}

/** Rows an error names at all ("Item index 3 (vendor_sku X): …"). */
function namedIndexes(text: string): Set<number> {
	const named = new Set<number>();
	for (const match of text.matchAll(/item index (\d+(?:\s*[-,]\s*\d+)*)/gi)) for (const index of indexesIn(match[1])) named.add(index);
	return named;
}

const BATCHED: ReadonlySet<string> = new Set(['upsert', 'create']);

function toldByOutput(json: IDataObject | undefined): Told {
	if (json === undefined) return 'nothing';
	if (json.error !== undefined) return UNKNOWN_OUTCOME.test(`${String(json.error)} ${String(json.message ?? '')}`) ? 'unknown' : 'nothing';
	if (json.operation === 'awaiting the service') return 'awaiting';
	if (json.operation === 'unchanged') return 'unchanged';
	if (json.operation === 'not applied') return 'notApplied';
	if (json.status === 'unconfirmed' || json.status === 'outcome unknown') return 'unknown';
	return 'done';
}

/** What the run told about row `index`. */
export function toldFor(record: RunRecord, index: number): Told {
	if (!record.error || record.outputs.length > 0) return toldByOutput(record.outputs[index]);
	const text = errorText(record);
	if (BATCHED.has(record.spec.operation)) {
		// The batched runner stops after every row had its turn and names the rows it sent; a row it names as failed may
		// be of unknown outcome; any other (invalid, held back as awaiting the service, unchanged) had nothing written.
		if (sentIndexes(text).has(index)) return 'done';
		return namedIndexes(text).has(index) && UNKNOWN_OUTCOME.test(text) ? 'unknown' : 'nothing';
	}
	if (carriedOutIndexes(text).has(index)) return 'done';
	return UNKNOWN_OUTCOME.test(text) && namedIndexes(text).has(index) ? 'unknown' : 'nothing';
}

const copies = (items: RunRecord['after']['items'], sku: string | undefined) => items.filter((item) => skuIdentity(item.vendor_sku) === sku).length;
const createdDuring = (record: RunRecord, sku: string | undefined) => copies(record.after.items, sku) > copies(record.before.items, sku);

const succeeded = (request: RequestLogEntry) => request.status >= 200 && request.status < 300;

/** The writes the service carried out for row `index` of `record` (from the run's request log). */
export function writesFor(record: RunRecord, index: number): RequestLogEntry[] {
	const row = record.rows[index];
	const itemIds = new Set(
		[...record.before.items, ...record.after.items].filter((item) => row.sku !== undefined && skuIdentity(item.vendor_sku) === row.sku).map((item) => String(item.item_id)),
	);
	return record.requests.filter(succeeded).filter((request) => {
		const body = (request.body ?? {}) as IDataObject;
		switch (record.spec.operation) {
			case 'upsert':
			case 'create':
			case 'itemUpdate':
				// A 207 says which items it refused, in a body the log does not keep: the service's store tells.
				if (request.method === 'POST' && request.path.startsWith('/v1/consignments/')) {
					return ((body.items as IDataObject[] | undefined) ?? []).some((sent) => skuIdentity(sent.vendor_sku) === row.sku) && createdDuring(record, row.sku);
				}
				// A mirror's PATCH {quantity: 0} is not a write for a row of the input.
				return request.method === 'PATCH' && itemIds.has(request.path.split('/').pop() ?? '') && body.quantity !== 0;
			case 'addressCreate':
				return request.method === 'POST' && streetOf(body) === row.street;
			case 'addressUpdate':
			case 'addressDelete':
				return request.method !== 'GET' && request.path === `/v1/vendor/addresses/${String(row.targetId)}`;
			case 'orderCancel':
				return request.method === 'POST' && body.sku === row.targetId;
		}
	});
}

/** Text that advises running the node (or workflow) again, whatever else it says. */
export const advisesRunningAgain = (text: string) => /\b(run|re-run|rerun|try|execute)\b[^.\n]*\bagain\b/i.test(text);
