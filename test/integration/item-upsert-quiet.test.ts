// A scheduled Create or Update of an unchanged sheet sends nothing with a new node's defaults (version 1.3: Only Send
// What Changed on), where a node saved before keeps its setting; and the hint says exactly what the 6-hour check sees:
// a change made outside the workflow to a field the listings show is corrected, one to a field they do not show is not.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { buildWorkflow, packageNodeType, runWorkflow } from '../harness';
import { ONLY_CHANGED_HINT } from '../../nodes/ConsignmentVendor/resources/item/upsert';
import { LISTED_FIELDS } from '../../nodes/ConsignmentVendor/resources/item/helpers/itemPreview';
import { contractColumnsRow, ItemSuite, validItemBody } from './item-harness';
import { NODE_NAME, outputOf } from './nodeRun.helpers';

const suite = new ItemSuite().install();

async function run(typeVersion: number, rows: IDataObject[], staticData: IDataObject, extra: INodeParameters = {}) {
	await suite.sandbox.admin.clearRequests();
	const workflow = buildWorkflow({ type: packageNodeType('consignmentVendor'), name: NODE_NAME, typeVersion, parameters: { resource: 'item', operation: 'upsert', consignmentId: { __rl: true, mode: 'id', value: 'cons_12345' }, priceUnit: 'cents', ...extra }, credential: suite.store.get('cred-1') });
	const result = await runWorkflow(workflow, { credentials: suite.store, inputItems: rows, staticData, mode: 'trigger' });
	expect(result.error).toBeUndefined();
	const writes = (await suite.apiRequests()).filter((request) => request.method !== 'GET');
	return { operations: outputOf(result).map((item) => item.json.operation), writes };
}

/** A change made at the service by someone else (the portal, another tool): a whole-item PATCH with the vendor's own token. */
async function changeOutside(sku: string, body: IDataObject) {
	const { baseUrl, authUrl, clientId, clientSecret } = suite.sandbox;
	const token = await fetch(`${authUrl}/api/v1/bearer-token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
	}).then(async (response) => ((await response.json()) as { bearer_token: string }).bearer_token);
	const { item_id: itemId } = await suite.storedItem(sku);
	const answer = await fetch(`${baseUrl}/v1/items/${itemId}`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
		body: JSON.stringify(validItemBody(sku, body)),
	});
	expect(answer.status).toBe(200);
}

beforeEach(async () => {
	await suite.sandbox.admin.setItemSettings({ listingDelaySeconds: 0 });
});

/** Sheet rows with the contract's column names, read by the column mapper (Map Automatically) of versions 1.1 and up. */
const rows = () => Array.from({ length: 12 }, (_, n) => contractColumnsRow(`QUIET-SHEET-${n}`));

describe('the second run of an unchanged sheet', () => {
	it('sends no write with a new node (version 1.3)', async () => {
		const staticData: IDataObject = {};
		await run(1.3, rows(), staticData); // creates them
		await run(1.3, rows(), staticData); // the listings show them: confirmed, no write
		const third = await run(1.3, rows(), staticData);
		expect(third.writes).toEqual([]);
		expect(new Set(third.operations)).toEqual(new Set(['unchanged']));
	});

	it('still PATCHes every non-approved row with a node saved at version 1.2 (its Only Send What Changed stays off)', async () => {
		const staticData: IDataObject = {};
		await run(1.2, rows(), staticData);
		await run(1.2, rows(), staticData);
		const third = await run(1.2, rows(), staticData);
		expect(third.writes).toHaveLength(12);
	});
});

describe('a new item found for the first time', () => {
	it.each([1.2, 1.3])('is not called unchanged when the listing shows other values than were submitted (version %s)', async (typeVersion) => {
		const staticData: IDataObject = {};
		const sheet = [contractColumnsRow('FOUND-1')];
		expect((await run(typeVersion, sheet, staticData)).operations).toEqual(['created']);
		const sent = validItemBody('FOUND-1');
		await changeOutside('FOUND-1', { price: (sent.price as number) + 700 });
		const found = await run(typeVersion, sheet, staticData);
		expect(found.operations).toEqual(['updated']);
		expect((await suite.storedItem('FOUND-1')).price).toBe(sent.price);
	});
});

describe("Only Send What Changed's 6-hour check does what its hint says", () => {
	it('the hint names exactly the fields the comparison reads from the listings', () => {
		for (const label of Object.values(LISTED_FIELDS)) expect(ONLY_CHANGED_HINT).toContain(label);
		expect(ONLY_CHANGED_HINT).toMatch(/do not show \(MSRP, images, gender, attributes, address\) are trusted as last sent/);
		expect(ONLY_CHANGED_HINT).toMatch(/Forget What Was Sent/);
	});

	it('a price changed outside the workflow is corrected at the check; an MSRP changed outside is not, until Forget What Was Sent', async () => {
		const staticData: IDataObject = {};
		const sheet = [contractColumnsRow('OUTSIDE-1'), contractColumnsRow('OUTSIDE-2')];
		await run(1.3, sheet, staticData);
		await run(1.3, sheet, staticData);
		const sent = validItemBody('OUTSIDE-1');
		await changeOutside('OUTSIDE-1', { price: (sent.price as number) + 500 });
		await changeOutside('OUTSIDE-2', { msrp: (sent.msrp as number) + 500 });
		(staticData[`node:${NODE_NAME}`] as IDataObject).sentItemsVerifiedAt = Date.now() - 7 * 3_600_000;
		const checked = await run(1.3, sheet, staticData);
		expect(checked.operations).toEqual(['updated', 'unchanged']);
		expect((await suite.storedItem('OUTSIDE-1')).price).toBe(sent.price);
		expect((await suite.storedItem('OUTSIDE-2')).msrp).toBe((sent.msrp as number) + 500);
		const forgotten = await run(1.3, sheet, staticData, { forgetWhatWasSent: true });
		expect(forgotten.operations).toEqual(['updated', 'updated']);
		expect((await suite.storedItem('OUTSIDE-2')).msrp).toBe(sent.msrp);
	});
});
