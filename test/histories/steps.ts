// A history is a list of steps, plain data: what a user, n8n and the service did. fast-check generates and shrinks
// them (commands.ts), the world plays them (world.ts), the printer reads them back (printer.ts).
import type { ItemRowSpec } from './rows';

export type Operation = 'upsert' | 'create' | 'itemUpdate' | 'addressCreate' | 'addressUpdate' | 'addressDelete' | 'orderCancel';

/** What the service does to this run's requests (sandbox faults), named as a user would see it. */
export type FaultChoice =
	| { kind: 'dropWrite'; skip: number } // the connection breaks before the service processes the write
	| { kind: 'lostAnswer'; skip: number } // the service carries the write out, its answer never arrives (timeout)
	| { kind: 'serverError'; skip: number; method: 'POST' | 'PATCH' | 'GET' } // 503, not processed
	| { kind: 'tooManyRequests'; count: number } // 429 with Retry-After: 1
	| { kind: 'refusal'; skip: number }; // 422 to one write at full concurrency, not processed

export interface RunSpec {
	workflow: number;
	operation: Operation;
	/** Which node of that operation in the workflow (two Create or Update nodes, e.g. the failed-rows-back-in example). */
	node: number;
	items: ItemRowSpec[];
	/** Address rows by street number (Create), or the streets of addresses created earlier (Update, Delete). */
	streets: number[];
	/** Order Cancel: the pool SKUs whose purchase is cancelled. */
	orders: number[];
	onlySendWhatChanged: 'on' | 'off' | 'default';
	/** New Items Listed Within (hours); undefined leaves the parameter out (its default). */
	windowHours?: number;
	/** Listed Items Not in the Input: Set Their Quantity to 0 (the mirror), with its guard opened wide. */
	mirror: boolean;
	continueOnFail: boolean;
	/** A manual test run: n8n does not save its static data. */
	manual: boolean;
	faults: FaultChoice[];
	/** The process dies as the run ends: its static data is not saved, the process memory is gone. */
	crash: boolean;
}

export type Step =
	| { kind: 'run'; run: RunSpec }
	/** Runs started `gapMs` apart, overlapping (the service answers slowly meanwhile). */
	| { kind: 'overlap'; runs: RunSpec[]; gapMs: number }
	/** n8n restarts: the process memory is gone; saved static data is kept. */
	| { kind: 'restart' }
	| { kind: 'time'; seconds: number }
	| { kind: 'rename'; workflow: number; node: number }
	/** The marketplace approves the item of a pool SKU (it goes live). */
	| { kind: 'approve'; sku: number }
	/** A buyer purchases the approved item of a pool SKU (an order to cancel). */
	| { kind: 'purchase'; sku: number }
	/** Someone changes the item in the marketplace's portal, outside every workflow. */
	| { kind: 'outsideEdit'; sku: number; version: number; field: 'msrp' | 'price' };

/** What each history starts with: how the service lists items, and how the user set Only Send What Changed. */
export interface ServiceSetup {
	listingDelaySeconds: number;
	numericSkusAsNumbers: boolean;
	/** Every Create or Update node's setting, unless the feature settingChanges lets each run choose. */
	onlySendWhatChanged: 'on' | 'off';
}
