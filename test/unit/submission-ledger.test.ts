// The account's ledger of unlisted submissions (submissionLedger.ts) on its own: what one run, node or workflow
// leaves for the others, what static data carries, and what a restart, a listing or Send Again changes.
import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { forgetProcessLedger, SubmissionLedger } from '../../nodes/ConsignmentVendor/resources/item/helpers/submissionLedger';

const ACCOUNT = 'https://api.example.com\u0000client-1';
const HOUR = 3_600_000;

/** A workflow's static data as n8n hands it to a node: the global part and this node's part. */
function workflow(staticData: IDataObject = {}) {
	const context = {
		getWorkflowStaticData: (type: string) => {
			const key = type === 'global' ? 'global' : 'node:Sync';
			staticData[key] ??= {};
			return staticData[key] as IDataObject;
		},
	} as unknown as IExecuteFunctions;
	return { staticData, open: (sendAgain: string[] = []) => SubmissionLedger.open(context, ACCOUNT, { sendAgain }) };
}

let now = Date.parse('2026-11-27T12:00:00Z');
beforeEach(() => {
	forgetProcessLedger();
	now = Date.parse('2026-11-27T12:00:00Z');
	jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

it('a claim holds the SKU for every workflow on the account at once, whatever the case or spaces', () => {
	const [shop, sheet] = [workflow(), workflow()];
	expect(shop.open().claim('BAG-1', 'f1')).toBeUndefined();
	expect(sheet.open().claim(' bag-1 ', 'f1')).toMatchObject({ kind: 'sending' });
});

it('a row another workflow sent after a restart and the service refused does not release what this workflow submitted before', () => {
	const [sheet, shop] = [workflow(), workflow()];
	const first = sheet.open();
	first.claim('BAG-3', 'f3');
	first.answered('BAG-3', 'submitted', 2 * HOUR);
	first.save();
	forgetProcessLedger(); // n8n restarts: the shop's workflow never saw the sheet's submission
	now += 60_000;
	const shopRun = shop.open();
	expect(shopRun.claim('BAG-3', 'bad')).toBeUndefined();
	now += 500;
	shopRun.answered('BAG-3', 'refused', 2 * HOUR);
	now += 60_000;
	// The sheet's next run still holds its row: the item it submitted may be listed at any moment.
	expect(sheet.open().holding('BAG-3')).toMatchObject({ kind: 'submitted', fingerprint: 'f3' });
});

it('a creation another workflow sent with a window of 0 after a restart does not release what this workflow submitted before', () => {
	const [sheet, shop] = [workflow(), workflow()];
	const first = sheet.open();
	first.claim('BAG-5', 'f5');
	first.answered('BAG-5', 'submitted', 2 * HOUR);
	first.save();
	forgetProcessLedger();
	now += 60_000;
	const shopRun = shop.open();
	expect(shopRun.claim('BAG-5', 'f5')).toBeUndefined();
	now += 500;
	shopRun.answered('BAG-5', 'submitted', 0);
	now += 60_000;
	// The shop's window of 0 says its own creation is listed at once; the sheet's submission still holds its row.
	expect(sheet.open().holding('BAG-5')).toMatchObject({ kind: 'submitted', fingerprint: 'f5' });
});

it('a listing seen stays seen: a later refused claim does not bring back an older submission another workflow saved', () => {
	const [sheet, shop, feed] = [workflow(), workflow(), workflow()];
	const first = sheet.open();
	first.claim('BAG-6', 'f6');
	first.answered('BAG-6', 'submitted', 24 * HOUR);
	shop.open().save(); // the shop's workflow saves the account's ledger: BAG-6 submitted
	now += 60_000;
	sheet.open().listed('BAG-6');
	now += 60_000;
	const feedRun = feed.open();
	expect(feedRun.claim('BAG-6', 'bad')).toBeUndefined();
	feedRun.answered('BAG-6', 'refused', 24 * HOUR);
	now += 60_000;
	expect(shop.open().holding('BAG-6')).toBeUndefined();
});

it('a refused claim stays released when a copy of it, saved while it was on the wire, comes back from static data', () => {
	const [sheet, shop] = [workflow(), workflow()];
	const shopRun = shop.open();
	shopRun.claim('BAG-4', 'bad');
	sheet.open().save(); // another run saves the account's ledger with the claim still on the wire
	now += 500;
	shopRun.answered('BAG-4', 'refused', 2 * HOUR);
	now += 60_000;
	expect(sheet.open().holding('BAG-4')).toBeUndefined();
});

it('a submission holds its row for its own window only, and leaves static data and the process after it', () => {
	const sheet = workflow();
	const ledger = sheet.open();
	ledger.claim('BAG-2', 'f2');
	ledger.answered('BAG-2', 'submitted', 2 * HOUR);
	ledger.save();
	now += HOUR;
	expect(sheet.open().holding('BAG-2')).toMatchObject({ kind: 'submitted', fingerprint: 'f2' });
	now += HOUR;
	const later = sheet.open();
	expect(later.holding('BAG-2')).toBeUndefined();
	later.save();
	expect((sheet.staticData.global as IDataObject).submissionLedger).toEqual({});
});

it('with a window of 0 an answered creation counts as listed: a run that read before the answer looks again; a refusal does not', () => {
	const ledger = workflow().open();
	const readBefore = now;
	ledger.claim('BAG-0', 'f0');
	ledger.claim('BAG-R', 'fr');
	now += 500;
	ledger.answered('BAG-0', 'submitted', 0);
	ledger.answered('BAG-R', 'refused', 0);
	expect(ledger.holding('BAG-0')).toBeUndefined();
	expect(ledger.listedSince('BAG-0', readBefore)).toBe(true);
	expect(ledger.listedSince('BAG-0', now + 1)).toBe(false);
	expect(ledger.listedSince('BAG-R', readBefore)).toBe(false);
});

it('static data brings a submission back after a restart; a listing seen since is not undone by an older save', () => {
	const sheet = workflow();
	const ledger = sheet.open();
	ledger.claim('BAG-3', undefined);
	ledger.answered('BAG-3', 'unknown', 24 * HOUR);
	ledger.save();
	const saved = structuredClone(sheet.staticData);
	forgetProcessLedger(); // a restart
	expect(workflow(structuredClone(saved)).open().holding('BAG-3')).toMatchObject({ kind: 'unknown' });
	now += 1000;
	workflow(structuredClone(saved)).open().listed('BAG-3');
	// Another workflow whose static data still holds the older entry.
	expect(workflow(structuredClone(saved)).open().holding('BAG-3')).toBeUndefined();
});

it('Send Again releases a held submission for that run, never one still on the wire', () => {
	const sheet = workflow();
	const ledger = sheet.open();
	ledger.claim('SENT', undefined);
	ledger.answered('SENT', 'submitted', 24 * HOUR);
	ledger.claim('ON-THE-WIRE', undefined);
	const again = sheet.open(['sent', 'on-the-wire']);
	expect(again.holding('SENT')).toBeUndefined();
	expect(again.claim('ON-THE-WIRE', undefined)).toMatchObject({ kind: 'sending' });
	expect(sheet.open().holding('SENT')).toMatchObject({ kind: 'submitted' });
});

it("reads the node's ledger an earlier version saved (no end of its own: the window given), then moves it", () => {
	const account = createHash('sha256').update(ACCOUNT).digest('hex').slice(0, 16);
	const sheet = workflow({ 'node:Sync': { awaitingListing: { [account]: { 'old-1': `s${now - HOUR}` } } } });
	const ledger = SubmissionLedger.open(
		{ getWorkflowStaticData: (type: string) => sheet.staticData[type === 'global' ? 'global' : 'node:Sync'] ?? (sheet.staticData.global = {}) } as unknown as IExecuteFunctions,
		ACCOUNT,
		{ legacyWindowMs: 2 * HOUR },
	);
	expect(ledger.holding('OLD-1')).toMatchObject({ kind: 'submitted', until: now + HOUR });
	ledger.save();
	expect(sheet.staticData['node:Sync']).toEqual({});
	expect(((sheet.staticData.global as IDataObject).submissionLedger as IDataObject)[account]).toEqual({ 'old-1': `s${now - HOUR}+${2 * HOUR}` });
});

it('a save that changes nothing leaves static data untouched (n8n would write the workflow for nothing)', () => {
	const sheet = workflow();
	const ledger = sheet.open();
	ledger.claim('BAG-4', 'f4');
	ledger.answered('BAG-4', 'submitted', HOUR);
	ledger.save();
	const saved = (sheet.staticData.global as IDataObject).submissionLedger;
	sheet.open().save();
	expect((sheet.staticData.global as IDataObject).submissionLedger).toBe(saved);
});
