// The Item Trigger polled as n8n polls it (test/harness/trigger/poll-host.ts: n8n-core's PollContext, the
// activation poll, ticks, restarts, static data saved as n8n saves it) against the sandbox, whose statuses the test
// changes between polls through its admin endpoints.
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { CredentialStore, sandboxCredential } from '../harness/credential-store';
import { startPollHost, type PollHost } from '../harness/trigger';
import { startSandbox, type RequestLogEntry } from '../sandbox';
import { useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

async function host(parameters: INodeParameters = {}, credentials = new CredentialStore([sandboxCredential(sandbox())])): Promise<PollHost> {
	return await startPollHost({ credentials, parameters });
}

const admin = () => sandbox().admin;

/** `event item_id previous->status` of each output item. */
const summary = (items: INodeExecutionData[] | null) =>
	(items ?? []).map(({ json }) => `${String(json.event)} ${String(json.item_id)} ${String(json.previous_status)}->${String(json.status)}`);

const listingRequests = (log: RequestLogEntry[]) => log.filter((r) => r.path.startsWith('/v1/items'));

/** Ids of seeded items: the first of each status, from the sandbox's own state. */
async function seededIds(): Promise<Record<string, number>> {
	const { items } = await admin().state();
	const first = (status: string) => items.find((i) => i.validation_status === status)!.item_id;
	return { approved: first('approved'), pending: first('pending'), rejected: first('rejected'), deleted: first('deleted') };
}

describe('activation, polls and restarts', () => {
	it('takes a baseline on activation, then announces each change once, in one execution per poll', async () => {
		const ids = await seededIds();
		const trigger = await host();

		expect(await trigger.activate()).toBeNull();
		expect(trigger.staticDataSaves).toBe(1);
		expect(trigger.savedStaticData['node:Consignment Vendor Item Trigger']).toMatchObject({ itemStatuses: { v: 1 } });

		await admin().setItemStatus(ids.pending, 'approved');
		await admin().setItemStatus(ids.approved, 'deleted');
		const [created] = await admin().seedItems({ count: 1, skuPrefix: 'POLL-NEW-' });
		const first = await trigger.poll();
		expect(summary(first).sort()).toEqual(
			[
				`status_changed ${ids.pending} pending->approved`,
				`status_changed ${ids.approved} approved->deleted`,
				`new_item ${created.item_id} null->pending`,
			].sort(),
		);
		// The item's fields as its listing shows it, in one shape (price in cents, quantity or null), plus what happened.
		const approvedNow = first!.find((i) => i.json.item_id === ids.pending)!.json;
		expect(approvedNow).toMatchObject({ vendor_sku: expect.any(String), designer: expect.any(String), price: expect.any(Number), quantity: null });
		const deletedNow = first!.find((i) => i.json.item_id === ids.approved)!.json;
		expect(deletedNow).toMatchObject({ item_status: 'deleted', price: expect.any(Number), quantity: expect.any(Number) });
		expect(deletedNow.listed_price).toEqual({ currency_code: 'USD', price: ((deletedNow.price as number) / 100).toFixed(2) });

		expect(await trigger.poll()).toBeNull();

		await admin().setItemStatus(ids.rejected, 'pending');
		expect(summary(await trigger.poll())).toEqual([`status_changed ${ids.rejected} rejected->pending`]);
		expect(await trigger.poll()).toBeNull();
		expect(trigger.executions).toHaveLength(2);
	});

	it('a restart does not announce again what was announced, and announces once what changed while n8n was down', async () => {
		const ids = await seededIds();
		const trigger = await host();
		await trigger.activate();
		await admin().setItemStatus(ids.pending, 'rejected');
		expect(summary(await trigger.poll())).toEqual([`status_changed ${ids.pending} pending->rejected`]);
		// Polls that find nothing save nothing (n8n 1.x): the saved memory is the one of the last announcement.
		expect(await trigger.poll()).toBeNull();

		expect(await trigger.restart()).toBeNull();

		await trigger.poll();
		await admin().setItemStatus(ids.deleted, 'approved');
		trigger.deactivate();
		expect(summary(await trigger.restart())).toEqual([`status_changed ${ids.deleted} deleted->approved`]);
		expect(await trigger.poll()).toBeNull();
		expect(await trigger.restart()).toBeNull();
		expect(trigger.executions.map(summary)).toEqual([
			[`status_changed ${ids.pending} pending->rejected`],
			[`status_changed ${ids.deleted} deleted->approved`],
		]);
	});

	it('a poll that fails changes no memory: the change it missed is announced by the next poll', async () => {
		const ids = await seededIds();
		const trigger = await host();
		await trigger.activate();
		await admin().setItemStatus(ids.pending, 'approved');
		// The second listing request (the approved listing) is refused; a 403 is neither repeated nor a page refusal.
		await admin().addFault({ kind: 'status', status: 403, pathPrefix: '/v1/items', skip: 1 });
		expect(await trigger.poll()).toBeNull();
		expect(trigger.polls.at(-1)!.error).toBeDefined();
		expect(summary(await trigger.poll())).toEqual([`status_changed ${ids.pending} pending->approved`]);
		expect(await trigger.poll()).toBeNull();
	});

	it('a poll still reading when the next one is due is not overlapped (no double announcement)', async () => {
		const ids = await seededIds();
		const trigger = await host();
		await trigger.activate();
		await admin().setItemStatus(ids.pending, 'approved');
		await admin().clearRequests();
		await admin().setLatency(200);
		const [a, b] = await Promise.all([trigger.poll(), trigger.poll()]);
		await admin().clearLatency();
		expect([...summary(a), ...summary(b)]).toEqual([`status_changed ${ids.pending} pending->approved`]);
		expect(listingRequests(await admin().requests())).toHaveLength(2);
	});
});

describe('the credential changes to another account', () => {
	it('takes a new baseline instead of comparing the new account\'s items with the old account\'s memory', async () => {
		const other = await startSandbox({ port: 0, seed: false });
		try {
			await other.admin.seedItems({ count: 5, status: 'rejected', skuPrefix: 'OTHER-' });
			const credentials = new CredentialStore([sandboxCredential(sandbox())]);
			const trigger = await host({}, credentials);
			await trigger.activate();
			credentials.patch('cred-1', { baseUrl: other.baseUrl, authUrl: other.authUrl });
			expect(await trigger.poll()).toBeNull();
			const [first] = (await other.admin.state()).items;
			await other.admin.setItemStatus(first.item_id, 'approved');
			expect(summary(await trigger.poll())).toEqual([`status_changed ${first.item_id} rejected->approved`]);
		} finally {
			await other.close();
		}
	});
});

describe('filters', () => {
	it('Only When New Status Is: only changes to those statuses start the workflow (and new items in them)', async () => {
		const ids = await seededIds();
		const trigger = await host({ statuses: ['approved', 'deleted'] });
		await trigger.activate();
		await admin().setItemStatus(ids.pending, 'approved');
		await admin().setItemStatus(ids.rejected, 'pending');
		await admin().setItemStatus(ids.approved, 'deleted');
		await admin().seedItems({ count: 1, skuPrefix: 'POLL-PENDING-' });
		expect(summary(await trigger.poll()).sort()).toEqual(
			[`status_changed ${ids.pending} pending->approved`, `status_changed ${ids.approved} approved->deleted`].sort(),
		);
		// The filtered-out changes are remembered too: they do not come back later.
		expect(await trigger.poll()).toBeNull();
	});

	it('Events: New Item only', async () => {
		const ids = await seededIds();
		const trigger = await host({ events: ['new_item'] });
		await trigger.activate();
		await admin().setItemStatus(ids.pending, 'approved');
		const [created] = await admin().seedItems({ count: 1, skuPrefix: 'POLL-ONLY-NEW-' });
		expect(summary(await trigger.poll())).toEqual([`new_item ${created.item_id} null->pending`]);
	});
});

describe('Fetch Test Event', () => {
	it('returns the most recently updated items as events and leaves the memory alone', async () => {
		const ids = await seededIds();
		const trigger = await host();
		await trigger.activate();
		const saved = structuredClone(trigger.savedStaticData);
		await admin().advanceClock(60);
		await admin().setItemStatus(ids.rejected, 'approved');

		const sample = await trigger.fetchTestEvent();
		expect(sample).toHaveLength(5);
		expect(sample![0].json).toMatchObject({ item_id: ids.rejected, event: 'new_item', previous_status: null, status: 'approved' });
		expect(trigger.savedStaticData).toEqual(saved);
		// The active workflow's memory was not touched: the change is still announced.
		expect(summary(await trigger.poll())).toEqual([`status_changed ${ids.rejected} rejected->approved`]);
	});

	it('works before any activation (no memory needed), filtered by status', async () => {
		const trigger = await host({ statuses: ['rejected'] });
		const sample = await trigger.fetchTestEvent();
		expect(sample!.length).toBeGreaterThan(0);
		expect(sample!.every((i) => i.json.status === 'rejected' && i.json.item_status === 'rejected')).toBe(true);
		expect(trigger.staticDataSaves).toBe(0);
	});
});

describe('what one poll costs', () => {
	// Both listings, at the paginator's page size (100; the sandbox's maximum): ceil(N/100) + ceil(A/100) requests.
	for (const [nonApproved, approved] of [
		[26, 26],
		[26 + 250, 26 + 1_000],
		[26 + 1_000, 26],
	]) {
		it(`${nonApproved} non-approved + ${approved} approved items: ${Math.ceil(nonApproved / 100)} + ${Math.ceil(approved / 100)} listing requests`, async () => {
			if (nonApproved > 26) await admin().seedManyItems({ count: nonApproved - 26, status: 'pending', skuPrefix: 'COST-P-' });
			if (approved > 26) await admin().seedManyItems({ count: approved - 26, status: 'approved', skuPrefix: 'COST-A-' });
			const trigger = await host();
			await trigger.activate();
			await admin().clearRequests();
			await trigger.poll();
			const requests = listingRequests(await admin().requests());
			const onPath = (path: string) => requests.filter((r) => r.path === path);
			expect(onPath('/v1/items/non_approved')).toHaveLength(Math.ceil(nonApproved / 100));
			expect(onPath('/v1/items')).toHaveLength(Math.ceil(approved / 100));
			expect(onPath('/v1/items').every((r) => r.query.validation_status === 'approved')).toBe(true);
			expect(requests.every((r) => r.method === 'GET' && r.status === 200)).toBe(true);
			process.stdout.write(`item trigger poll, ${nonApproved} + ${approved} items: ${requests.length} requests\n`);
		});
	}
});

describe("a memory an older version of the node saved (before `since` and `watching`)", () => {
	it('gains `since` at the first poll after the upgrade, though no status changed, and `watching` at the next', async () => {
		const trigger = await host();
		await trigger.activate();
		const saved = trigger.savedStaticData['node:Consignment Vendor Item Trigger'] as { itemStatuses: Record<string, unknown> };
		for (const field of ['since', 'watching', 'writes']) delete saved.itemStatuses[field];

		// n8n restarts with this version: the start-up poll reads the small catalogue whole, finds nothing changed.
		expect(await trigger.restart()).toBeNull();
		const afterStart = (trigger.savedStaticData['node:Consignment Vendor Item Trigger'] as { itemStatuses: Record<string, unknown> }).itemStatuses;
		expect(afterStart.since).toEqual(expect.any(Number));
		expect(afterStart.watching).toBeUndefined();

		// The next poll takes that `since` for when the trigger started watching, and keeps it.
		const { pending } = await seededIds();
		await admin().setItemStatus(pending, 'approved');
		expect(summary(await trigger.poll())).toEqual([`status_changed ${pending} pending->approved`]);
		const later = (trigger.savedStaticData['node:Consignment Vendor Item Trigger'] as { itemStatuses: Record<string, unknown> }).itemStatuses;
		expect(later.watching).toBe(afterStart.since);
	});
});
