// What a polling trigger still cannot tell (docs/item-trigger.md, "What can be lost"), measured against the sandbox
// through n8n's lifecycle (test/harness/trigger/poll-host.ts): each figure the docs quote comes from here.
import { allAnnounced, summary, useItemTriggerSandbox } from './item-trigger.helpers';

const { admin, host, firstIds, seedLargeCatalogue } = useItemTriggerSandbox();

describe('between two reads the trigger compares, only the net change shows', () => {
	it('a status that leaves and comes back (approved -> deleted -> approved) is no change: nothing is announced', async () => {
		const ids = await firstIds();
		const trigger = await host();
		await trigger.activate();
		await admin().setItemStatus(ids.approved, 'deleted');
		await admin().setItemStatus(ids.approved, 'approved');
		expect(await trigger.poll()).toBeNull();
	});

	it('two changes (pending -> rejected -> approved): one announcement, pending -> approved; with Only When New Status Is = rejected, none', async () => {
		const ids = await firstIds();
		const all = await host();
		await all.activate();
		await admin().setItemStatus(ids.pending, 'rejected');
		await admin().setItemStatus(ids.pending, 'approved');
		expect(summary(await all.poll())).toEqual([`status_changed ${ids.pending} pending->approved`]);

		await admin().reset();
		const rejections = await host({ parameters: { statuses: ['rejected'] } });
		await rejections.activate();
		await admin().setItemStatus(ids.pending, 'rejected');
		await admin().setItemStatus(ids.pending, 'approved');
		expect(await rejections.poll()).toBeNull();
	});

	it('a new item approved before any poll saw it, Events = Status Changed only: nothing (it is a new item to the trigger)', async () => {
		const trigger = await host({ parameters: { events: ['status_changed'], statuses: ['approved'] } });
		await trigger.activate();
		const [created] = await admin().seedItems({ count: 1, skuPrefix: 'LIM-NEW-' });
		await admin().advanceClock(60);
		await admin().setItemStatus(created.item_id, 'approved');
		expect(await trigger.poll()).toBeNull();
	});
});

describe('announced although nothing may have changed (previous_status_unknown says so)', () => {
	it('items beyond the first pages updated within the margin before a first activation: announced by the first scheduled poll', async () => {
		// Seeded just now: within the minute before the activation on the service's clock.
		const pending = await admin().seedManyItems({ count: 124, status: 'pending', skuPrefix: 'LIM-P-' });
		await admin().seedManyItems({ count: 124, status: 'approved', skuPrefix: 'LIM-A-' });
		const trigger = await host();
		await trigger.activate();
		const announced = summary(await trigger.poll());
		// 300 items, 100 of each listing read by the activation: the other 100 (pending ones, new_item) are announced.
		process.stdout.write(`item trigger, 300 items made just before the first activation: ${announced.length} announced\n`);
		expect(announced).toHaveLength(100);
		expect(announced).toContain(`new_item ${pending.first_item_id + 123} null->pending`);
		expect(await trigger.poll()).toBeNull();
	});

	it('after a restart, a new item edited (not a status change) after a quiet poll saw it, Events = Status Changed: announced once', async () => {
		await seedLargeCatalogue(10);
		const trigger = await host({ parameters: { events: ['status_changed'] } });
		await trigger.activate();
		const [created] = await admin().seedItems({ count: 1, skuPrefix: 'LIM-EDIT-' });
		expect(await trigger.poll()).toBeNull();
		await admin().advanceClock(60);
		// An edit that leaves the status as it was (the sandbox's status endpoint stamps updated_at).
		await admin().setItemStatus(created.item_id, 'pending');
		await trigger.restart();
		await trigger.poll();
		expect(allAnnounced(trigger)).toEqual([`status_changed ${created.item_id} null->pending (previous unknown)`]);
	});
});
