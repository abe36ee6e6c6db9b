// The Item Trigger through n8n's lifecycle as n8n 1.123 and 2.41 run it (test/harness/trigger/poll-host.ts: ONE poll
// context per activation, reused by every tick; a replaced activation's running poll completes and emits in 1.x,
// is discarded in 2.41), against the sandbox: activation cost, a catalogue read over several polls, a restart
// mid-baseline, re-activation and deactivation during a poll, the credential changing under an active trigger,
// and the event shape per node version.
import { RequestScheduler } from '../../nodes/shared/transport/scheduler';
import { CredentialStore, sandboxCredential } from '../harness/credential-store';
import type { N8nLine } from '../harness/trigger';
import { startSandbox } from '../sandbox';
import { allAnnounced, listingRequests, memoryOf, summary, useItemTriggerSandbox } from './item-trigger.helpers';

const { sandbox, admin, host, listingRequestCount, pollHeldMidRead, firstIds, seedLargeCatalogue } = useItemTriggerSandbox();

describe('activation is cheap: the first page of each listing, through the interactive lane', () => {
	it('a large catalogue: 2 requests at activation (a partial baseline), the rest by the first scheduled poll, silently', async () => {
		const { lastPending, lastApproved } = await seedLargeCatalogue();
		// Which lane each request of the credential's queue took.
		const lanes: boolean[] = [];
		const original = RequestScheduler.prototype.run;
		const run = jest.spyOn(RequestScheduler.prototype, 'run').mockImplementation(function <T>(this: RequestScheduler, request: Parameters<RequestScheduler['run']>[0]) {
			lanes.push(request.interactive === true);
			return original.call(this, request) as Promise<T>;
		});
		try {
			const trigger = await host();
			await admin().clearRequests();
			expect(await trigger.activate()).toBeNull();
			const atActivation = listingRequests(await admin().requests());
			// Side by side: in either order.
			expect(atActivation.map((r) => `${r.path} ${r.query.page_size}`).sort()).toEqual(['/v1/items 100', '/v1/items/non_approved 100']);
			expect(lanes).toEqual([true, true]);
			// What the activation read is saved (n8n saves after the activation's poll), marked partial.
			expect(memoryOf(trigger)).toMatchObject({ v: 2 });

			lanes.length = 0;
			await admin().clearRequests();
			// The first scheduled poll reads everything: the items the activation did not see are no news.
			expect(await trigger.poll()).toBeNull();
			expect(listingRequests(await admin().requests())).toHaveLength(11 + 11);
			expect(lanes.every((interactive) => !interactive)).toBe(true);

			await admin().setItemStatus(lastPending, 'approved');
			await admin().setItemStatus(lastApproved, 'deleted');
			const [created] = await admin().seedItems({ count: 1, skuPrefix: 'LC-NEW-' });
			expect(summary(await trigger.poll()).sort()).toEqual(
				[`status_changed ${lastPending} pending->approved`, `status_changed ${lastApproved} approved->deleted`, `new_item ${created.item_id} null->pending`].sort(),
			);
			expect(memoryOf(trigger)).toMatchObject({ v: 1 });
		} finally {
			run.mockRestore();
		}
	});

	it('a change made between the activation and the first scheduled poll, to an item the activation read, is announced', async () => {
		await seedLargeCatalogue();
		const ids = await firstIds();
		const trigger = await host();
		await trigger.activate();
		await admin().setItemStatus(ids.pending, 'rejected');
		expect(summary(await trigger.poll())).toEqual([`status_changed ${ids.pending} pending->rejected`]);
	});

	it('a small catalogue (one page per listing): the activation is a complete poll, as before', async () => {
		const ids = await firstIds();
		const trigger = await host();
		await admin().clearRequests();
		expect(await trigger.activate()).toBeNull();
		expect(await listingRequestCount()).toBe(2);
		expect(memoryOf(trigger)).toMatchObject({ v: 1 });
		await admin().setItemStatus(ids.rejected, 'approved');
		expect(summary(await trigger.poll())).toEqual([`status_changed ${ids.rejected} rejected->approved`]);
	});

	it("n8n's start-up with a saved memory: 2 requests, nothing changed; the first poll after it announces what changed while n8n was down", async () => {
		const { lastPending } = await seedLargeCatalogue();
		const trigger = await host();
		await trigger.activate();
		await trigger.poll();
		await admin().setItemStatus(lastPending, 'approved');
		expect(summary(await trigger.poll())).toEqual([`status_changed ${lastPending} pending->approved`]);
		const saved = structuredClone(trigger.savedStaticData);

		await admin().setItemStatus(lastPending, 'deleted');
		await admin().clearRequests();
		expect(await trigger.restart()).toBeNull();
		expect(await listingRequestCount()).toBe(2);
		expect(trigger.savedStaticData).toEqual(saved);
		expect(summary(await trigger.poll())).toEqual([`status_changed ${lastPending} approved->deleted`]);
		expect(await trigger.poll()).toBeNull();
	});

	it('an activation that cannot read the first page fails (n8n shows the error), and changes nothing', async () => {
		await admin().addFault({ kind: 'status', status: 403, pathPrefix: '/v1/items', count: 1 });
		const trigger = await host();
		await expect(trigger.activate()).rejects.toThrow();
		expect(trigger.staticDataSaves).toBe(0);
		expect(trigger.isActive).toBe(false);
	});
});

describe('a restart before the baseline is complete', () => {
	it('is safe: no item is announced as new, nothing twice; changes after the baseline are announced once', async () => {
		const { lastPending, lastApproved } = await seedLargeCatalogue();
		const trigger = await host();
		await trigger.activate();
		// n8n restarts before any scheduled poll: the partial baseline from the activation is what the database holds.
		expect(await trigger.restart()).toBeNull();
		expect(memoryOf(trigger)).toMatchObject({ v: 2 });
		expect(await trigger.poll()).toBeNull();
		// The baseline completed in memory; n8n restarts again before any poll started an execution (nothing saved).
		expect(await trigger.restart()).toBeNull();
		expect(await trigger.poll()).toBeNull();
		await admin().setItemStatus(lastPending, 'rejected');
		await admin().setItemStatus(lastApproved, 'pending');
		expect(summary(await trigger.poll()).sort()).toEqual(
			[`status_changed ${lastPending} pending->rejected`, `status_changed ${lastApproved} approved->pending`].sort(),
		);
		expect(await trigger.poll()).toBeNull();
		expect(trigger.executions).toHaveLength(1);
	});

	it('a re-activation (the workflow saved) before the trigger ever started an execution keeps the baseline the scheduled poll took', async () => {
		const { lastApproved } = await seedLargeCatalogue();
		const trigger = await host();
		await trigger.activate();
		await trigger.poll();
		await admin().setItemStatus(lastApproved, 'deleted');
		trigger.deactivate();
		await trigger.activate();
		// The activation took over the memory n8n had not saved, and n8n saved it after the activation's poll.
		expect(memoryOf(trigger)).toMatchObject({ v: 1 });
		expect(summary(await trigger.poll())).toEqual([`status_changed ${lastApproved} approved->deleted`]);
		await trigger.restart();
		expect(await trigger.poll()).toBeNull();
	});

	it('a change made while n8n was down, before the trigger ever started an execution, is announced once, also for an item the activation did not read', async () => {
		const { lastPending } = await seedLargeCatalogue();
		const ids = await firstIds();
		const trigger = await host();
		await trigger.activate();
		await trigger.poll();
		// n8n saves a poll trigger's memory only at activation and when a poll starts an execution (1.x, 2.41): the
		// saved memory is the activation's partial baseline, which knows when the trigger started watching.
		await admin().setItemStatus(ids.pending, 'approved');
		await admin().setItemStatus(lastPending, 'approved');
		await trigger.restart();
		expect(summary(await trigger.poll()).sort()).toEqual(
			[`status_changed ${ids.pending} pending->approved`, `status_changed ${lastPending} null->approved (previous unknown)`].sort(),
		);
		expect(await trigger.poll()).toBeNull();
		await trigger.restart();
		expect(await trigger.poll()).toBeNull();
		expect(trigger.executions).toHaveLength(1);
	});
});

describe.each<N8nLine>(['1.x', '2.x'])('n8n %s: an activation replaced while a poll reads', (line) => {
	it('saving the workflow during a poll: the change is announced once (the superseded poll returns nothing)', async () => {
		const ids = await firstIds();
		const trigger = await host({ n8n: line });
		await trigger.activate();
		await admin().setItemStatus(ids.pending, 'approved');
		// The tick's second request (the approved listing) takes 1.5 s: the workflow is saved meanwhile.
		const { tick } = await pollHeldMidRead(trigger, 1, 1_500);
		// The new activation starts from the saved static data (the memory before the change), as n8n loads it.
		const atActivation = await trigger.activate('update');
		expect(await tick).toBeNull();
		// Neither events nor an error (n8n 1.x would make an error execution of it).
		const superseded = trigger.polls.find((p) => p.activation === 'tick')!;
		expect([superseded.items, superseded.error]).toEqual([null, undefined]);
		expect(summary(atActivation)).toEqual([`status_changed ${ids.pending} pending->approved`]);
		expect(await trigger.poll()).toBeNull();
		expect(allAnnounced(trigger)).toEqual([`status_changed ${ids.pending} pending->approved`]);
		expect(trigger.started.every((e) => !e.afterReplacement)).toBe(true);
	});

	it('a large catalogue: the superseded poll stops reading at once; the new activation\'s first poll announces the change once', async () => {
		const { lastApproved } = await seedLargeCatalogue();
		const trigger = await host({ n8n: line });
		await trigger.activate();
		await trigger.poll();
		await admin().setItemStatus(lastApproved, 'rejected');
		// After 3 pages, the next page of each listing (read side by side) is held.
		const { tick } = await pollHeldMidRead(trigger, 3, 1_000, { held: 2 });
		await trigger.activate('update');
		expect(await tick).toBeNull();
		expect(trigger.polls.filter((p) => p.error !== undefined)).toEqual([]);
		// The old poll sent at most the page of each listing on the wire when the workflow was saved, then nothing:
		// 3 + 2 of its own, 2 of the new activation.
		expect(await listingRequestCount()).toBeLessThanOrEqual(3 + 2 + 2);
		expect(summary(await trigger.poll())).toEqual([`status_changed ${lastApproved} approved->rejected`]);
		expect(allAnnounced(trigger)).toEqual([`status_changed ${lastApproved} approved->rejected`]);
	});

	it('one poll at a time: the superseded poll ends at once, its answer on the wire abandoned, before the new activation reads', async () => {
		const { lastPending } = await seedLargeCatalogue();
		const trigger = await host({ n8n: line });
		await trigger.activate();
		await trigger.poll();
		await admin().setItemStatus(lastPending, 'deleted');
		// The old poll's 2nd page hangs for 3 s: its request is on the wire when the workflow is saved.
		const held = await pollHeldMidRead(trigger, 1, 3_000);
		let tickEnded = false;
		const tick = held.tick.finally(() => {
			tickEnded = true;
		});
		const savedAt = Date.now();
		await trigger.activate('update');
		await new Promise((resolve) => setImmediate(resolve));
		expect(tickEnded).toBe(true);
		expect(Date.now() - savedAt).toBeLessThan(2_000);
		expect(await tick).toBeNull();
		expect(trigger.polls.filter((p) => p.error !== undefined)).toEqual([]);
		expect(summary(await trigger.poll())).toEqual([`status_changed ${lastPending} pending->deleted`]);
		expect(trigger.executions).toHaveLength(1);
	});

	it('one poll at a time: a tick that finds the previous tick of its activation still reading is skipped', async () => {
		const trigger = await host({ n8n: line });
		await trigger.activate();
		await admin().clearRequests();
		await admin().addFault({ kind: 'latency', ms: 1_000, pathPrefix: '/v1/items', count: 1 });
		const first = trigger.poll();
		expect(await trigger.poll()).toBeNull();
		await first;
		expect(await listingRequestCount()).toBe(2);
	});
});

describe('deactivating the workflow during a poll', () => {
	it('n8n 2.x discards the running poll: nothing is announced after the deactivation, and a later activation announces the change once', async () => {
		const ids = await firstIds();
		const trigger = await host({ n8n: '2.x' });
		await trigger.activate();
		await admin().setItemStatus(ids.rejected, 'approved');
		const { tick } = await pollHeldMidRead(trigger, 1, 1_000);
		trigger.deactivate();
		await tick;
		expect(trigger.executions).toEqual([]);
		expect(summary(await trigger.activate())).toEqual([`status_changed ${ids.rejected} rejected->approved`]);
		expect(await trigger.poll()).toBeNull();
		expect(trigger.executions).toHaveLength(1);
	});

	it('n8n 1.x lets the running poll complete (a node is given no sign of a deactivation): its execution starts after it, and the change is not announced again', async () => {
		const ids = await firstIds();
		const trigger = await host({ n8n: '1.x' });
		await trigger.activate();
		await admin().setItemStatus(ids.rejected, 'approved');
		const { tick } = await pollHeldMidRead(trigger, 1, 1_000);
		trigger.deactivate();
		expect(summary(await tick)).toEqual([`status_changed ${ids.rejected} rejected->approved`]);
		expect(trigger.started).toMatchObject([{ afterReplacement: true }]);
		// Its execution saved the memory that includes the change: the next activation compares with it.
		expect(await trigger.activate()).toBeNull();
		expect(await trigger.poll()).toBeNull();
		expect(trigger.executions).toHaveLength(1);
	});

	it('n8n 1.x: deactivated and activated again during a poll, the change is announced once', async () => {
		const ids = await firstIds();
		const trigger = await host({ n8n: '1.x' });
		await trigger.activate();
		await admin().setItemStatus(ids.rejected, 'deleted');
		const { tick } = await pollHeldMidRead(trigger, 1, 1_500);
		trigger.deactivate();
		await trigger.activate();
		await tick;
		await trigger.poll();
		expect(allAnnounced(trigger)).toEqual([`status_changed ${ids.rejected} rejected->deleted`]);
	});
});

describe('the credential changes while the trigger is active (one poll context for every poll, as in n8n)', () => {
	it('a new Base URL is used at the next poll', async () => {
		const other = await startSandbox({ port: 0 });
		try {
			const credentials = new CredentialStore([sandboxCredential(sandbox())]);
			const trigger = await host({ credentials });
			await trigger.activate();
			expect(trigger.contextsCreated).toBe(1);
			credentials.patch('cred-1', { baseUrl: other.baseUrl, authUrl: other.authUrl, accessToken: '' });
			await admin().clearRequests();
			await trigger.poll();
			expect(await listingRequestCount()).toBe(0);
			expect(listingRequests(await other.admin.requests()).length).toBeGreaterThanOrEqual(2);
			expect(trigger.contextsCreated).toBe(1);
		} finally {
			await other.close();
		}
	});

	it('another account: a new baseline at the next poll, not its whole catalogue as new items', async () => {
		const other = await startSandbox({ port: 0, seed: false });
		try {
			await other.admin.seedItems({ count: 5, status: 'rejected', skuPrefix: 'OTHER-' });
			const credentials = new CredentialStore([sandboxCredential(sandbox())]);
			const trigger = await host({ credentials });
			await trigger.activate();
			await trigger.poll();
			credentials.patch('cred-1', { baseUrl: other.baseUrl, authUrl: other.authUrl, accessToken: '' });
			expect(await trigger.poll()).toBeNull();
			const [first] = (await other.admin.state()).items;
			await other.admin.setItemStatus(first.item_id, 'approved');
			expect(summary(await trigger.poll())).toEqual([`status_changed ${first.item_id} rejected->approved`]);
			expect(trigger.executions).toHaveLength(1);
		} finally {
			await other.close();
		}
	});
});

describe('Fetch Test Event with a large catalogue', () => {
	it('sends 2 requests (the first page of each listing) and returns 5 items', async () => {
		await seedLargeCatalogue();
		const trigger = await host();
		await admin().clearRequests();
		const sample = await trigger.fetchTestEvent();
		expect(sample).toHaveLength(5);
		expect(await listingRequestCount()).toBe(2);
	});
});

describe('the event shape', () => {
	async function announcedAfterChanges(typeVersion: number) {
		const ids = await firstIds();
		const trigger = await host({ typeVersion });
		await trigger.activate();
		await admin().setItemStatus(ids.approved, 'rejected');
		await admin().setItemStatus(ids.pending, 'approved');
		const items = (await trigger.poll()) ?? [];
		const byId = (id: number) => items.find((i) => i.json.item_id === id)!.json;
		return { nonApproved: byId(ids.approved), approved: byId(ids.pending) };
	}

	it('version 2: price in cents and quantity (or null) in every event; the listing\'s price object as listed_price', async () => {
		const { nonApproved, approved } = await announcedAfterChanges(2);
		expect(typeof nonApproved.price).toBe('number');
		expect(typeof approved.price).toBe('number');
		expect(nonApproved.listed_price).toEqual({ currency_code: 'USD', price: ((nonApproved.price as number) / 100).toFixed(2) });
		expect(typeof nonApproved.quantity).toBe('number');
		expect(approved.quantity).toBeNull();
		expect('listed_price' in approved).toBe(false);
		// The same keys apart from each listing's own (id / item_status, listed_price).
		const own = new Set(['id', 'item_status', 'listed_price']);
		const keys = (json: object) => Object.keys(json).filter((k) => !own.has(k)).sort();
		expect(keys(nonApproved)).toEqual(keys(approved));
	});

	it('version 1 (saved workflows): the records exactly as listed', async () => {
		const { nonApproved, approved } = await announcedAfterChanges(1);
		expect(nonApproved.price).toMatchObject({ currency_code: 'USD', price: expect.any(String) });
		expect(typeof approved.price).toBe('number');
		expect('quantity' in approved).toBe(false);
	});
});
