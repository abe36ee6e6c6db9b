// Ignore Repeated Deliveries, end to end through the harness (test/harness/trigger): the sandbox delivers the
// same event again and the trigger starts one execution; the memory lives in the workflow's static data, which
// n8n saves after each production webhook call, so it holds across restarts and processes.
import { createHmac } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import type { TriggerHost } from '../harness/trigger';
import { startLabelServer, type LabelServer } from '../harness/trigger/label-server';
import { VendorPortal } from '../harness/trigger/vendor-client';
import { useTriggerHosts } from './trigger.helpers';

const triggers = useTriggerHosts();
const { sandbox } = triggers;

const PURCHASE = { vendor_sku: 'SBX-1000', sku: 'TRR-REPEAT-1', timestamp: '2026-11-02T09:30:00.000Z', pdf_url: 'https://labels.example.com/TRR-REPEAT-1.pdf' };

async function deliver(data: IDataObject = PURCHASE, envelope: 'body' | 'bare' | 'notification_event' = 'body') {
	const delivery = await sandbox().admin.emitEvent({ operation: 'item_purchased', data, envelope });
	await triggers.idle();
	return delivery;
}

it('the same event delivered twice starts one execution; the repeat is answered 200', async () => {
	const trigger = await triggers.activeHost();

	const first = await deliver();
	const again = await deliver();

	expect(first.rawBody).toBe(again.rawBody);
	expect([first.status, again.status]).toEqual([200, 200]);
	expect(trigger.calls.map((c) => c.started)).toEqual([true, false]);
	expect(trigger.executions).toHaveLength(1);
	expect(trigger.executions[0].items[0].json).toMatchObject({ event: 'item_purchased', sku: 'TRR-REPEAT-1' });
});

it('recognises the repeat in another envelope (same operation, key fields and timestamp)', async () => {
	const trigger = await triggers.activeHost();
	await deliver(PURCHASE, 'body');
	await deliver(PURCHASE, 'bare');
	await deliver(PURCHASE, 'notification_event');
	expect(trigger.executions).toHaveLength(1);
});

it('different events, and the same order at another time, each start an execution', async () => {
	const trigger = await triggers.activeHost();
	await deliver();
	await deliver({ ...PURCHASE, sku: 'TRR-REPEAT-2' });
	await deliver({ ...PURCHASE, timestamp: '2026-11-02T09:31:00.000Z' });
	expect(trigger.executions).toHaveLength(3);
});

it('with the option off, every delivery starts an execution', async () => {
	const trigger = await triggers.activeHost({ parameters: { options: { ignoreRepeatedDeliveries: false } } });
	await deliver();
	await deliver();
	expect(trigger.executions).toHaveLength(2);
});

it('is remembered in the workflow\'s saved static data: another process (or n8n after a restart) ignores the repeat too', async () => {
	const first = await triggers.activeHost();
	await deliver();
	expect(first.executions).toHaveLength(1);
	await first.deactivate();

	// Another n8n process on the same database: same saved static data, no shared memory.
	const other = await triggers.startHost();
	other.savedStaticData = structuredClone(first.savedStaticData);
	await other.activate();
	await deliver();

	expect(other.calls.map((c) => c.started)).toEqual([false]);
	expect(Object.keys((other.savedStaticData['node:Consignment Vendor Trigger'] as { deliveries: object }).deliveries)).toHaveLength(1);
});

it('two copies arriving at the same moment (before either call saved static data) start one execution', async () => {
	const trigger = await triggers.activeHost({ credential: { webhookSigningSecret: '' }, parameters: { options: { downloadLabel: true, labelTrustedHosts: 'labels.example.com' } } });
	const body = JSON.stringify({ body: { operation: 'item_purchased', data: PURCHASE } });
	const post = async () => (await fetch(trigger.productionUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status;

	const statuses = await Promise.all([post(), post()]);
	await trigger.idle();

	expect(statuses).toEqual([200, 200]);
	expect(trigger.executions).toHaveLength(1);
});

it('a refused delivery (bad signature) is not remembered: the genuine one still runs', async () => {
	const secret = 'whsec_repeats_91ab';
	const trigger = await triggers.activeHost({ credential: { webhookSigningSecret: secret } });
	const body = JSON.stringify({ body: { operation: 'item_purchased', data: PURCHASE } });
	const post = async (signature: string) =>
		(await fetch(trigger.productionUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-trr-signature': signature }, body })).status;

	const forged = await post(createHmac('sha256', 'not-the-secret').update(body).digest('hex'));
	const genuine = await post(createHmac('sha256', secret).update(body).digest('hex'));
	await trigger.idle();

	expect([forged, genuine]).toEqual([401, 200]);
	expect(trigger.executions).toHaveLength(1);
});

// n8n saves static data as a whole. A delivery that arrives after the vendor's URL changed but before n8n saved the
// activation's static data (n8n 2.x saves it only once every trigger of the workflow is registered) runs on the static
// data from before the activation; when it ends after that save (here: its label download is slow), saving its repeat
// memory would erase what the activation remembered.
describe('a delivery that arrives while n8n is still activating the workflow', () => {
	const PREVIOUS_URL = 'https://hooks.vendor.example/own';
	let labels: LabelServer;

	beforeAll(async () => {
		labels = await startLabelServer();
		labels.delayMs = 300;
	});
	afterAll(async () => await labels.close());

	async function activateWhileDelivering(trigger: TriggerHost): Promise<void> {
		let delivery: Promise<unknown> = Promise.resolve();
		await trigger.activate('activate', {
			beforeSave: async () => {
				const loaded = trigger.nextRequestLoaded();
				delivery = deliver({ ...PURCHASE, pdf_url: `${labels.url}/labels/TRR-REPEAT-1.pdf` });
				await loaded;
			},
		});
		await delivery;
	}

	const labelOptions = { options: { downloadLabel: true, labelTrustedHosts: '127.0.0.1', labelAllowPrivateHosts: true } };

	it('starts its execution, and deactivation still gives the vendor its previous URL back', async () => {
		const trigger = await triggers.startHost({ parameters: labelOptions });
		await new VendorPortal(sandbox()).set({ webhook_url: PREVIOUS_URL, webhook_enabled: true });

		await activateWhileDelivering(trigger);
		await trigger.deactivate();

		expect(trigger.executions).toHaveLength(1);
		expect(trigger.executions[0].items[0].binary).toBeDefined();
		expect(await triggers.vendorState()).toEqual({ url: PREVIOUS_URL, enabled: true });
	});

	it('a repeat of it is still ignored (this process remembers it)', async () => {
		const trigger = await triggers.startHost({ parameters: labelOptions });
		await activateWhileDelivering(trigger);
		await deliver({ ...PURCHASE, pdf_url: `${labels.url}/labels/TRR-REPEAT-1.pdf` });
		expect(trigger.calls.map((c) => c.started)).toEqual([true, false]);
	});
});

it('is saved also when activation found its own URL at the vendor with nothing remembered (activation remembers "nothing")', async () => {
	const trigger = await triggers.startHost();
	await new VendorPortal(sandbox()).set({ webhook_url: trigger.productionUrl, webhook_enabled: false });
	await trigger.activate();
	await deliver();
	const node = trigger.savedStaticData['node:Consignment Vendor Trigger'] as { deliveries?: object; registrations?: object };
	expect(node.registrations).toEqual({ [trigger.productionUrl]: { previousUrl: null, previousEnabled: false } });
	expect(Object.keys(node.deliveries ?? {})).toHaveLength(1);
});

it('test events are never ignored: the same event in two listening sessions runs both times', async () => {
	const trigger = await triggers.startHost();
	await trigger.listenForTestEvent();
	await deliver();
	await trigger.listenForTestEvent();
	await deliver();
	expect(trigger.executions.map((e) => e.kind)).toEqual(['test', 'test']);
});
