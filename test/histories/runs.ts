// One run of a history as n8n would execute it: the node's parameters and settings, its input items, the sandbox
// faults of the run. Rows that name an address or item created earlier are resolved against the service first, as a
// user's sheet holds the ids the service gave.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { NodeSettings } from '../harness';
import { ADDRESS_PARAMETERS_FROM_JSON } from '../integration/address-input';
import { asContractColumns, itemWriteParameters } from '../integration/item-input';
import type { FaultSpec, SandboxStateSnapshot } from '../sandbox';
import { addressRow, itemRow, SKU_POOL, skuIdentity, streetOf } from './rows';
import type { FaultChoice, RunSpec } from './steps';

/** A lost answer: the write waits this long at the service, past the run's timeout, and is then carried out. */
export const LOST_ANSWER_LATENCY_MS = 500;
const LOST_ANSWER_TIMEOUT_MS = 250;

/** One input item and what it stands for (a pool SKU, a street), for the invariants. */
export interface InputRow {
	json: IDataObject;
	/** The SKU as the service compares it, for item rows. */
	sku?: string;
	street?: number;
	/** The item or address this row names (Update, Delete, Cancel), when it exists at the service. */
	targetId?: number | string;
	spec?: RunSpec['items'][number];
}

export interface PreparedRun {
	parameters: INodeParameters;
	settings: NodeSettings | undefined;
	rows: InputRow[];
	faults: FaultSpec[];
	lostAnswer: boolean;
	/** The node's version: 1, or NEW_NODE_VERSION for a Create or Update left at its defaults. */
	typeVersion: number;
}

function writePath(run: RunSpec): { method: string; pathPrefix: string } {
	switch (run.operation) {
		case 'upsert':
		case 'create':
			return { method: 'POST', pathPrefix: '/v1/consignments/' };
		case 'itemUpdate':
			return { method: 'PATCH', pathPrefix: '/v1/items/' };
		case 'addressCreate':
			return { method: 'POST', pathPrefix: '/v1/vendor/addresses' };
		case 'addressUpdate':
			return { method: 'PATCH', pathPrefix: '/v1/vendor/addresses/' };
		case 'addressDelete':
			return { method: 'DELETE', pathPrefix: '/v1/vendor/addresses/' };
		case 'orderCancel':
			return { method: 'POST', pathPrefix: '/v1/cancellations' };
	}
}

function faultSpec(run: RunSpec, fault: FaultChoice): FaultSpec {
	const write = writePath(run);
	switch (fault.kind) {
		case 'dropWrite':
			return { kind: 'drop', ...write, skip: fault.skip };
		case 'lostAnswer':
			return { kind: 'latency', ms: LOST_ANSWER_LATENCY_MS, ...write, skip: fault.skip };
		case 'serverError': {
			const target = fault.method === 'GET' ? { method: 'GET', pathPrefix: '/v1/items' } : fault.method === 'PATCH' ? { method: 'PATCH', pathPrefix: write.pathPrefix.replace('consignments/', 'items/') } : write;
			return { kind: 'status', status: 503, ...target, skip: fault.skip };
		}
		case 'tooManyRequests':
			return { kind: 'rateLimit', retryAfterSeconds: 1, count: fault.count, pathPrefix: '/v1/' };
		case 'refusal':
			return { kind: 'status', status: 422, body: { error: 'refused by the service' }, ...write, skip: fault.skip };
	}
}

const byStreet = (state: SandboxStateSnapshot, street: number) =>
	state.addresses.filter((address) => streetOf(address) === street && address.active).map((address) => address.address_id);

/**
 * A Create or Update with Only Send What Changed left at its default is a node added now: version 1.3 (on by
 * default), its columns mapped automatically from contract-named input columns, as a new node maps a sheet.
 */
export const NEW_NODE_VERSION = 1.3;

function upsertParameters(run: RunSpec): INodeParameters {
	const settings: INodeParameters = {
		...(run.windowHours === undefined ? {} : { newItemsListedWithin: run.windowHours }),
		// The guard opened wide: the pool is small, so any missing item is more than the default share.
		...(run.mirror ? { missingItems: 'setQuantityToZero', maxMissingPercent: 100, maxMissingItems: 250 } : {}),
	};
	if (run.onlySendWhatChanged === 'default') {
		return { resource: 'item', operation: 'upsert', consignmentId: { __rl: true, mode: 'id', value: 'cons_12345' }, priceUnit: 'cents', ...settings };
	}
	return itemWriteParameters('upsert', { onlySendWhatChanged: run.onlySendWhatChanged === 'on', ...settings });
}

export function prepareRun(run: RunSpec, state: SandboxStateSnapshot): PreparedRun {
	let parameters: INodeParameters;
	let rows: InputRow[];
	const itemRows = () => run.items.map((spec) => ({ json: itemRow(spec), sku: skuIdentity(SKU_POOL[spec.sku]), spec }));
	switch (run.operation) {
		case 'upsert':
			parameters = upsertParameters(run);
			rows = itemRows();
			if (run.onlySendWhatChanged === 'default') rows = rows.map((row) => ({ ...row, json: asContractColumns(row.json) }));
			break;
		case 'create':
			parameters = itemWriteParameters('create');
			rows = itemRows();
			break;
		case 'itemUpdate': {
			parameters = itemWriteParameters('create', { operation: 'update', fieldsToSend: 'all', itemId: '={{ $json.item_id }}' });
			delete parameters.consignmentId;
			rows = itemRows().flatMap((row) => {
				const item = state.items.find((candidate) => skuIdentity(candidate.vendor_sku) === row.sku);
				return item ? [{ ...row, json: { ...row.json, item_id: item.item_id }, targetId: item.item_id }] : [];
			});
			break;
		}
		case 'addressCreate':
			parameters = { resource: 'address', operation: 'create', ...ADDRESS_PARAMETERS_FROM_JSON };
			rows = run.streets.map((street) => ({ json: addressRow(street), street }));
			break;
		case 'addressUpdate':
		case 'addressDelete':
			parameters = {
				resource: 'address',
				operation: run.operation === 'addressUpdate' ? 'update' : 'delete',
				addressId: '={{ $json.address_id }}',
				...(run.operation === 'addressUpdate' ? ADDRESS_PARAMETERS_FROM_JSON : {}),
			};
			rows = run.streets.flatMap((street) =>
				byStreet(state, street)
					.slice(0, 1)
					.map((id) => ({ json: { ...addressRow(street, 1), address_id: String(id) }, street, targetId: id })),
			);
			break;
		case 'orderCancel':
			parameters = { resource: 'order', operation: 'cancel', sku: '={{ $json.sku }}' };
			rows = run.orders.flatMap((sku) =>
				state.orders
					.filter((order) => skuIdentity(order.vendor_sku) === skuIdentity(SKU_POOL[sku]) && order.status === 'purchased')
					.slice(0, 1)
					.map((order) => ({ json: { sku: order.sku }, sku: skuIdentity(SKU_POOL[sku]), targetId: order.sku })),
			);
			break;
	}
	const lostAnswer = run.faults.some((fault) => fault.kind === 'lostAnswer');
	if (lostAnswer) parameters = { ...parameters, requestOptions: { timeout: LOST_ANSWER_TIMEOUT_MS } };
	return {
		parameters,
		settings: run.continueOnFail ? { onError: 'continueRegularOutput' } : undefined,
		rows,
		faults: run.faults.map((fault) => faultSpec(run, fault)),
		lostAnswer,
		typeVersion: run.operation === 'upsert' && run.onlySendWhatChanged === 'default' ? NEW_NODE_VERSION : 1,
	};
}
