// The invariants a user would state, checked after each step of a history. Each violation names the SKU or row.
import type { IDataObject } from 'n8n-workflow';

import type { SandboxStateSnapshot } from '../sandbox';
import { sameValues, type WriteLedger } from './ledger';
import { advisesRunningAgain, errorText, toldFor, writesFor } from './outcomes';
import { REFUSED_DESIGNER, skuIdentity, streetOf, versionValues } from './rows';
import type { RunRecord } from './world';

export interface Violation {
	invariant: string;
	detail: string;
}

/** Only Send What Changed's promise: a change made outside the node to a field the listings show is seen within this time. */
const OUTSIDE_CHANGE_SEEN_WITHIN_MS = 6 * 3_600_000;

/** The fields each listing shows of an item. */
const SHOWN = { approved: ['vendor_sku', 'price', 'designer', 'condition', 'taxon_permalink'], other: ['vendor_sku', 'quantity', 'price', 'designer', 'condition', 'taxon_permalink'] };
const ITEM_OPERATIONS: ReadonlySet<string> = new Set(['upsert', 'create', 'itemUpdate']);

const rowName = (record: RunRecord, index: number) => {
	const row = record.rows[index];
	const what = row.sku !== undefined ? `SKU ${JSON.stringify(row.json.sku ?? row.json.vendor_sku)}` : row.street !== undefined ? `address row "${row.street} History St"` : `order ${String(row.targetId)}`;
	return `${what} (row ${index} of ${record.label})`;
};

/**
 * At most one item per SKU the package created (`excused`: items of a SKU a documented limit explains, reach.ts); at
 * most one address per address row.
 */
export function noDuplicates(state: SandboxStateSnapshot, excused: (sku: string, count: number) => boolean = () => false): Violation[] {
	const violations: Violation[] = [];
	const bySku = new Map<string, number[]>();
	for (const item of state.items) bySku.set(skuIdentity(item.vendor_sku), [...(bySku.get(skuIdentity(item.vendor_sku)) ?? []), item.item_id]);
	for (const [sku, ids] of bySku) {
		if (ids.length > 1 && !excused(sku, ids.length)) violations.push({ invariant: 'at most one item per SKU', detail: `SKU ${sku} has ${ids.length} items at the service (item_id ${ids.join(', ')})` });
	}
	const byStreet = new Map<number, number>();
	for (const address of state.addresses) {
		const street = streetOf(address);
		if (street !== undefined) byStreet.set(street, (byStreet.get(street) ?? 0) + 1);
	}
	for (const [street, count] of byStreet) {
		if (count > 1) violations.push({ invariant: 'at most one address per address row', detail: `"${street} History St" was created ${count} times` });
	}
	return violations;
}

/** The row's values, as the service would hold them. */
function rowValues(record: RunRecord, index: number): IDataObject {
	const spec = record.rows[index].spec!;
	return { ...versionValues(spec.version), designer: spec.refused ? REFUSED_DESIGNER : 'Chanel' };
}

/** Every row's values at the service, or the row reported (error, awaiting, unknown, not applied). */
function valuesAtService(record: RunRecord, index: number, ledger: WriteLedger): Violation[] {
	const told = toldFor(record, index);
	if (told !== 'done' && told !== 'unchanged') return [];
	const row = record.rows[index];
	const items = record.after.items.filter((item) => skuIdentity(item.vendor_sku) === row.sku);
	if (items.length === 0) {
		return [{ invariant: "every row's values at the service, or the row reported", detail: `${rowName(record, index)}: the output says "${told}" but the service has no item with this SKU` }];
	}
	// An approved item takes only an address and a lower quantity: the output lists what it ignored.
	// Of a documented duplicate (invariant 1's exception), the row's values may be in either item; the newest is named.
	const live = items.filter((candidate) => candidate.validation_status !== 'approved');
	const item = live[live.length - 1];
	if (!item) return [];
	const wanted = rowValues(record, index);
	const alsoFine = record.overlapped.flatMap((other) =>
		other.rows.flatMap((otherRow, otherIndex) => (otherRow.sku === row.sku && otherRow.spec ? [rowValues(other, otherIndex)] : [])),
	);
	if ([wanted, ...alsoFine].some((values) => live.some((candidate) => sameValues(values, candidate as unknown as IDataObject)))) return [];
	if (record.overlapped.some((other) => other.spec.mirror) && item.quantity === 0) return [];
	const last = ledger.get(item.item_id);
	// "Unchanged" trusts Only Send What Changed's memory when someone else wrote the item last (its hint says so): a
	// change to a field the listings show is seen at the next 6-hour check; the fields they do not show (MSRP, ...) are
	// trusted as last sent until Forget What Was Sent.
	if (told === 'unchanged' && last && last.by !== record.nodeKey) {
		const differing = Object.keys(wanted).filter((field) => !sameValues({ [field]: wanted[field] }, item as unknown as IDataObject));
		if (differing.every((field) => !SHOWN.other.includes(field)) || record.endedAt - last.at < OUTSIDE_CHANGE_SEEN_WITHIN_MS) return [];
	}
	const held = { quantity: item.quantity, price: item.price, msrp: item.msrp, designer: item.designer };
	return [
		{
			invariant: "every row's values at the service, or the row reported",
			detail: `${rowName(record, index)}: the output says "${told}" but the service holds ${JSON.stringify(held)} where the row says ${JSON.stringify(wanted)}${last ? ` (last written by ${last.by})` : ''}`,
		},
	];
}

/** Nothing zeroed that the input holds (any form of its SKU). */
function nothingZeroedFromInput(record: RunRecord): Violation[] {
	if (!record.spec.mirror) return [];
	const inInput = new Set(record.rows.map((row) => row.sku));
	// The request log of overlapping runs is the group's: a PATCH to 0 is this run's only if no other mirror run of the
	// group could have sent it (one whose input lacks the SKU: two mirrors of different sources zero each other's items).
	const anotherMirrorLacks = (sku: string | undefined) => record.overlapped.some((other) => other.spec.mirror && !other.rows.some((row) => row.sku === sku));
	return record.requests
		// Sent is enough: the service refusing it (a non-approved item needs every field) does not make it right.
		.filter((request) => request.method === 'PATCH' && (request.body as IDataObject | null)?.quantity === 0)
		.flatMap((request) => {
			const item = record.before.items.find((candidate) => `/v1/items/${candidate.item_id}` === request.path);
			return item && inInput.has(skuIdentity(item.vendor_sku)) && !anotherMirrorLacks(skuIdentity(item.vendor_sku))
				? [{ invariant: 'nothing zeroed that the input holds', detail: `${record.label} sent PATCH {quantity: 0} to SKU ${item.vendor_sku} (item_id ${item.item_id}, ${item.validation_status}; the service answered ${request.status}) although its input has that SKU` }]
				: [];
		});
}

/** No write where the service already holds the row's values, as far as the listings (or the node's own last write) show. */
function noNeedlessWrite(record: RunRecord, ledger: WriteLedger): Violation[] {
	if (record.spec.operation !== 'upsert' || record.spec.onlySendWhatChanged === 'off' || record.overlapped.length > 0) return [];
	return record.requests
		.filter((request) => request.method === 'PATCH' && request.path.startsWith('/v1/items/') && request.status < 300)
		.flatMap((request) => {
			const item = record.before.items.find((candidate) => `/v1/items/${candidate.item_id}` === request.path);
			const body = (request.body ?? {}) as IDataObject;
			if (!item || !sameValues(body, item as unknown as IDataObject)) return [];
			const shown = Object.keys(body).every((field) => (item.validation_status === 'approved' ? SHOWN.approved : SHOWN.other).includes(field));
			const last = ledger.get(item.item_id);
			const knownToNode = last !== undefined && last.by === record.nodeKey && last.answered !== false && last.remembered === true && sameValues(body, last.values);
			if (!shown && !knownToNode) return [];
			return [
				{
					invariant: 'no write where the service already holds the row’s values',
					detail: `${record.label} sent PATCH ${request.path} ${JSON.stringify(body).slice(0, 160)} to SKU ${item.vendor_sku}, which already held those values (${shown ? 'the listings show them' : 'this node wrote them last'})`,
				},
			];
		});
}

/** Every output item matches what happened at the service; a stopped run names every row carried out. */
function outputsMatchService(record: RunRecord): Violation[] {
	if (record.overlapped.length > 0) return [];
	const violations: Violation[] = [];
	const anyWrite = record.rows.some((_, index) => writesFor(record, index).length > 0);
	if (record.error && record.outputs.length === 0 && anyWrite && advisesRunningAgain(errorText(record))) {
		violations.push({ invariant: 'every output item matches what happened at the service', detail: `${record.label} stopped after writes had been carried out, and its error advises running again: "${errorText(record).slice(0, 300)}"` });
	}
	record.rows.forEach((_, index) => {
		const told = toldFor(record, index);
		const written = writesFor(record, index).length > 0;
		if (told === 'unknown') return;
		if (told === 'done' && !written && ITEM_OPERATIONS.has(record.spec.operation) === false) {
			violations.push({ invariant: 'every output item matches what happened at the service', detail: `${rowName(record, index)}: reported as carried out, but the service carried out no write for it` });
		}
		if (told !== 'done' && written) {
			violations.push({ invariant: 'every output item matches what happened at the service', detail: `${rowName(record, index)}: reported as "${told}", but the service carried out a write for it` });
		}
	});
	return violations;
}

/** Every invariant of one run (or one run among overlapping ones). */
export function checkRun(record: RunRecord, ledger: WriteLedger): Violation[] {
	const perRow = ITEM_OPERATIONS.has(record.spec.operation) ? record.rows.flatMap((_, index) => valuesAtService(record, index, ledger)) : [];
	return [...perRow, ...nothingZeroedFromInput(record), ...noNeedlessWrite(record, ledger), ...outputsMatchService(record)];
}
