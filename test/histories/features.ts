// What the generator may put in a history. `npm test` runs the features the current code passes; a CLI flag
// (--features all, or --with overlap,renames) turns others on, so a fix can be checked once it lands.

export const FEATURES = {
	restarts: 'n8n restarts between runs (saved static data kept)',
	listingDelay: 'the service lists new items 90 s after accepting them; time passes between runs',
	timeJumps: 'hours pass between runs (the window and the 6-hour check run out)',
	onlySendWhatChanged: 'Create or Update with Only Send What Changed on (in some histories; off in the others)',
	settingChanges: 'Only Send What Changed turned on or off from one run to the next',
	quietByDefault: "Create or Update with Only Send What Changed left at the node's default",
	window0: 'runs with New Items Listed Within set to 0 (the advice for a refused row)',
	manualRuns: 'manual test runs (n8n does not save their static data)',
	faults: '503s and 429s, connections broken before a write reaches the service',
	lostAnswers: 'writes the service carries out whose answer is lost (timeout)',
	partialRefusals: 'rows the service alone refuses, in a 207',
	fullConcurrencyRefusals: 'a write refused (422) while others are on the wire, runs that stop on a failure',
	overlap: 'overlapping runs (a webhook fired twice, a schedule overlapping a slow run)',
	twoWorkflows: 'two or three workflows on one account',
	twoNodes: 'two Create or Update nodes in one workflow (the failed-rows-back-in example)',
	renames: 'node renames',
	skuForms: 'SKUs in another case or with spaces around',
	numericSkus: 'digit-only SKUs as JSON numbers in the input and in the listings (leading zeros kept in text)',
	mirror: 'Create or Update as a mirror (Set Their Quantity to 0)',
	approvals: 'the marketplace approves items',
	itemCreate: 'Item → Create of new SKUs',
	itemUpdate: 'Item → Update by item_id',
	addresses: 'Address → Create, Update, Delete',
	orders: 'purchases and Order → Cancel',
	outsideEdits: "edits made in the marketplace's portal",
	crashes: 'the process dies as a run ends (nothing saved)',
} as const;

export type Feature = keyof typeof FEATURES;

export const ALL_FEATURES = Object.keys(FEATURES) as Feature[];

/**
 * Off in `npm test`, each with why (the CLI turns them on: --features +name). None now: the documented limits
 * (another workflow after a restart, manual runs, crashes, a window of 0) are modelled by the invariants (reach.ts),
 * and a Create or Update left at its defaults runs as a new node (version 1.3). Read by histories.test.ts and the
 * CLI's report.
 */
export const OFF_BY_DEFAULT: Partial<Record<Feature, string>> = {};

export const DEFAULT_FEATURES = ALL_FEATURES.filter((feature) => !(feature in OFF_BY_DEFAULT));

/** "all", "default", or a comma-separated list; `+x`/`-x` entries add to or take from the default set. */
export function parseFeatures(text: string | undefined): Set<Feature> {
	if (text === undefined || text === '' || text === 'default') return new Set(DEFAULT_FEATURES);
	if (text === 'all') return new Set(ALL_FEATURES);
	const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
	const relative = entries.every((entry) => entry.startsWith('+') || entry.startsWith('-'));
	const chosen = new Set<Feature>(relative ? DEFAULT_FEATURES : []);
	for (const entry of entries) {
		const name = entry.replace(/^[+-]/, '') as Feature;
		if (!(name in FEATURES)) throw new Error(`unknown feature "${name}"; known: ${ALL_FEATURES.join(', ')}`);
		if (entry.startsWith('-')) chosen.delete(name);
		else chosen.add(name);
	}
	return chosen;
}
