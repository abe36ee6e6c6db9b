// The arbitraries of a history, limited to the features turned on. Shrinking works on these plain values: fewer
// steps, fewer rows, fewer faults, smaller indexes, "off" options.
import fc from 'fast-check';

import type { Feature } from './features';
import { SKU_POOL, type ItemRowSpec, type SkuForm } from './rows';
import type { FaultChoice, Operation, RunSpec, ServiceSetup, Step } from './steps';

type Features = ReadonlySet<Feature>;

/** True one time in `n`; shrinks to false. */
const sometimes = (n: number) => fc.nat({ max: n - 1 }).map((drawn) => drawn === n - 1);

const when = <T>(on: boolean, arbitrary: fc.Arbitrary<T>, otherwise: T): fc.Arbitrary<T> => (on ? arbitrary : fc.constant(otherwise));

export function setupArbitrary(features: Features): fc.Arbitrary<ServiceSetup> {
	return fc.record({
		listingDelaySeconds: when(features.has('listingDelay'), fc.constantFrom(0, 90), 0),
		numericSkusAsNumbers: when(features.has('numericSkus'), fc.boolean(), false),
		onlySendWhatChanged: when(features.has('onlySendWhatChanged'), fc.constantFrom('off' as const, 'on' as const), 'off'),
	});
}

function itemRows(features: Features): fc.Arbitrary<ItemRowSpec[]> {
	const forms: SkuForm[] = ['text', ...(features.has('skuForms') ? (['lower', 'upper', 'spaces'] as const) : []), ...(features.has('numericSkus') ? (['number'] as const) : [])];
	const row = fc.record({
		sku: fc.nat({ max: SKU_POOL.length - 1 }),
		form: fc.constantFrom(...forms),
		version: fc.nat({ max: 2 }),
		refused: when(features.has('partialRefusals'), sometimes(5), false),
	});
	return fc.uniqueArray(row, { selector: (spec) => spec.sku, minLength: 1, maxLength: 4 });
}

function faults(features: Features, operation: Operation): fc.Arbitrary<FaultChoice[]> {
	const choices: Array<{ arbitrary: fc.Arbitrary<FaultChoice>; weight: number }> = [];
	const skip = fc.nat({ max: 3 });
	if (features.has('faults')) {
		choices.push(
			{ arbitrary: fc.record({ kind: fc.constant('dropWrite' as const), skip }), weight: 2 },
			{ arbitrary: fc.record({ kind: fc.constant('serverError' as const), skip, method: fc.constantFrom('POST' as const, 'PATCH' as const, 'GET' as const) }), weight: 2 },
			// Rarer: each costs a second (Retry-After: 1).
			{ arbitrary: fc.record({ kind: fc.constant('tooManyRequests' as const), count: fc.constant(1) }), weight: 1 },
		);
	}
	if (features.has('lostAnswers')) choices.push({ arbitrary: fc.record({ kind: fc.constant('lostAnswer' as const), skip }), weight: 2 });
	if (features.has('fullConcurrencyRefusals') && operation !== 'upsert' && operation !== 'create') {
		choices.push({ arbitrary: fc.record({ kind: fc.constant('refusal' as const), skip: fc.nat({ max: 25 }) }), weight: 3 });
	}
	if (choices.length === 0) return fc.constant([]);
	return fc.array(fc.oneof(...choices), { maxLength: 2 });
}

function operations(features: Features): fc.Arbitrary<Operation> {
	const weighted: Array<{ arbitrary: fc.Arbitrary<Operation>; weight: number }> = [{ arbitrary: fc.constant('upsert'), weight: 6 }];
	if (features.has('itemCreate')) weighted.push({ arbitrary: fc.constant('create'), weight: 1 });
	if (features.has('itemUpdate')) weighted.push({ arbitrary: fc.constant('itemUpdate'), weight: 1 });
	if (features.has('addresses')) weighted.push({ arbitrary: fc.constantFrom('addressCreate', 'addressCreate', 'addressUpdate', 'addressDelete'), weight: 2 });
	if (features.has('orders')) weighted.push({ arbitrary: fc.constant('orderCancel'), weight: 1 });
	return fc.oneof(...weighted);
}

export function runArbitrary(features: Features, onlyUpsert = false): fc.Arbitrary<RunSpec> {
	return (onlyUpsert ? fc.constant<Operation>('upsert') : operations(features)).chain((operation) =>
		fc.record({
			workflow: when(features.has('twoWorkflows'), fc.nat({ max: 2 }), 0),
			operation: fc.constant(operation),
			node: when(operation === 'upsert' && features.has('twoNodes'), fc.nat({ max: 1 }), 0),
			items: itemRows(features),
			// Create: how many new addresses (numbered when the step runs); Update/Delete: which of those created.
			streets: fc.array(fc.nat({ max: 40 }), { minLength: 1, maxLength: features.has('fullConcurrencyRefusals') ? 30 : 4 }),
			orders: fc.uniqueArray(fc.nat({ max: SKU_POOL.length - 1 }), { minLength: 1, maxLength: 2 }),
			// 'on'/'off' become the history's setting (setupArbitrary) unless settingChanges is on.
			onlySendWhatChanged: fc.constantFrom(
				...(features.has('onlySendWhatChanged') || features.has('settingChanges') ? (['off', 'on'] as const) : (['off'] as const)),
				...(features.has('quietByDefault') ? (['default'] as const) : []),
			),
			windowHours: when(features.has('window0'), sometimes(3).map((zero) => (zero ? 0 : undefined)), undefined),
			mirror: when(operation === 'upsert' && features.has('mirror'), sometimes(3), false),
			continueOnFail: features.has('fullConcurrencyRefusals') ? sometimes(2).map((stops) => !stops) : fc.constant(true),
			manual: when(features.has('manualRuns'), sometimes(4), false),
			faults: faults(features, operation),
			crash: when(features.has('crashes'), sometimes(5), false),
		}),
	);
}

export function stepArbitrary(features: Features): fc.Arbitrary<Step> {
	const steps: Array<{ arbitrary: fc.Arbitrary<Step>; weight: number }> = [{ arbitrary: runArbitrary(features).map((run) => ({ kind: 'run' as const, run })), weight: 8 }];
	if (features.has('overlap')) {
		steps.push({
			arbitrary: fc.record({ kind: fc.constant('overlap' as const), runs: fc.array(runArbitrary(features, true), { minLength: 2, maxLength: 2 }), gapMs: fc.constantFrom(0, 40, 120) }),
			weight: 2,
		});
	}
	if (features.has('restarts')) steps.push({ arbitrary: fc.constant({ kind: 'restart' as const }), weight: 1 });
	const seconds = [...(features.has('listingDelay') ? [30, 120] : []), ...(features.has('timeJumps') ? [7 * 3600, 25 * 3600] : [])];
	if (seconds.length) steps.push({ arbitrary: fc.record({ kind: fc.constant('time' as const), seconds: fc.constantFrom(...seconds) }), weight: 2 });
	if (features.has('renames')) steps.push({ arbitrary: fc.record({ kind: fc.constant('rename' as const), workflow: when(features.has('twoWorkflows'), fc.nat({ max: 2 }), 0), node: when(features.has('twoNodes'), fc.nat({ max: 1 }), 0) }), weight: 1 });
	const sku = fc.nat({ max: SKU_POOL.length - 1 });
	if (features.has('approvals') || features.has('mirror') || features.has('orders')) steps.push({ arbitrary: fc.record({ kind: fc.constant('approve' as const), sku }), weight: 1 });
	if (features.has('orders')) steps.push({ arbitrary: fc.record({ kind: fc.constant('purchase' as const), sku }), weight: 1 });
	if (features.has('outsideEdits')) steps.push({ arbitrary: fc.record({ kind: fc.constant('outsideEdit' as const), sku, version: fc.nat({ max: 2 }), field: fc.constantFrom('msrp' as const, 'price' as const) }), weight: 1 });
	return fc.oneof(...steps);
}
