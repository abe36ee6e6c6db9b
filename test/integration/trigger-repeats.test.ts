// Ignore Repeated Deliveries, end to end through the harness (test/harness/trigger): the sandbox delivers the
// same event again and the trigger starts one execution; the memory lives in the workflow's static data, which
// n8n saves after each production webhook call, so it holds across restarts and processes.
import { createHmac } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

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
