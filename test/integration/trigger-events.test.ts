// Events the sandbox delivers over real HTTP to the activated trigger (harness: test/harness/trigger): every
// documented envelope and event, the item-created notice from a real item creation, the Events filter, the
// raw-body option, and a test-URL event.
import type { INodeParameters } from 'n8n-workflow';

import { ContractClient, validItem } from '../contract/helpers';
import type { WebhookEnvelope } from '../sandbox';
import { useTriggerHosts } from './trigger.helpers';

const triggers = useTriggerHosts();
const { sandbox } = triggers;

const activeHost = async (parameters: INodeParameters = {}) => await triggers.activeHost({ parameters });

/** Emits through the sandbox, waits for the delivery and for the host to finish handling it. */
async function emit(operation: string, data: Record<string, unknown>, envelope: WebhookEnvelope = 'body') {
	const delivery = await sandbox().admin.emitEvent({ operation, data, envelope });
	await triggers.idle();
	return delivery;
}

const ENVELOPES: WebhookEnvelope[] = ['body', 'notification_event', 'bare'];

const DOCUMENTED: Array<{ operation: string; data: Record<string, unknown>; expected: Record<string, unknown> }> = [
	{
		operation: 'successful_item_upload',
		data: { vendor_sku: 'SKU-OK', errors: [], consignment_id: 31 },
		expected: { vendor_sku: 'SKU-OK', errors: [], consignment_id: '31' },
	},
	{
		operation: 'invalid_item_upload',
		data: { vendor_sku: 'SKU-BAD', errors: ['designer is invalid'], consignment_id: null },
		expected: { vendor_sku: 'SKU-BAD', errors: ['designer is invalid'], consignment_id: null },
	},
	{
		operation: 'item_purchased',
		data: { sku: 'TRR-ORDER-1' },
		// The sandbox serves the label itself: pdf_url is its own origin + /labels/<sku>.pdf.
		expected: { sku: 'TRR-ORDER-1', vendor_sku: expect.any(String), pdf_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/labels\/TRR-ORDER-1\.pdf$/) },
	},
	{
		operation: 'address_creation',
		data: { id: 901, errors: [] },
		expected: { id: '901', errors: [] },
	},
];

describe('every documented event in every documented envelope', () => {
	for (const envelope of ENVELOPES) {
		it(`normalises all four events sent as "${envelope}"`, async () => {
			const trigger = await activeHost();
			for (const { operation, data } of DOCUMENTED) {
				const delivery = await emit(operation, data, envelope);
				expect(delivery.status).toBe(200);
			}

			expect(trigger.executions).toHaveLength(DOCUMENTED.length);
			trigger.executions.forEach(({ kind, items }, index) => {
				const { operation, expected } = DOCUMENTED[index];
				expect(kind).toBe('production');
				expect(items).toHaveLength(1);
				expect(items[0].json).toEqual({ event: operation, timestamp: expect.any(String), ...expected });
				expect(items[0].binary).toBeUndefined();
			});
		});
	}

	it('answers accepted events 200 with n8n\'s "Workflow was started"', async () => {
		const trigger = await activeHost();
		await emit('address_creation', { id: 1, errors: [] });
		expect(trigger.calls[0]).toMatchObject({ status: 200, started: true });
	});
});

describe('the item-created notice', () => {
	it('a real item creation through the API reaches the workflow with its item_id', async () => {
		const trigger = await activeHost();
		const api = new ContractClient(sandbox());
		const { consignments } = await sandbox().admin.state();
		const created = await api.request('POST', `/v1/consignments/${consignments[0].id}/items`, {
			body: { items: [validItem({ vendor_sku: 'NOTICE-1' })] },
		});
		expect(created.status).toBe(200);
		await sandbox().admin.waitForDeliveries(1);
		await trigger.idle();

		const item = (await sandbox().admin.state()).items.find((i) => i.vendor_sku === 'NOTICE-1');
		expect(item).toBeDefined();
		expect(trigger.executions).toHaveLength(1);
		expect(trigger.executions[0].items[0].json).toMatchObject({
			event: 'successful_item_upload',
			vendor_sku: 'NOTICE-1',
			item_id: String(item?.item_id),
			consignment_id: String(consignments[0].id),
		});
	});

	it('a notice without an operation (flat {item_id, ...}) is reported as successful_item_upload', async () => {
		const trigger = await activeHost();
		const res = await fetch(trigger.productionUrl, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ item_id: 555, vendor_sku: 'FLAT-1' }),
		});
		await trigger.idle();
		expect(res.status).toBe(200);
		expect(trigger.executions[0].items[0].json).toEqual({ event: 'successful_item_upload', item_id: '555', vendor_sku: 'FLAT-1' });
	});
});

describe('Events filter', () => {
	it('starts only on the selected events; the others are acknowledged with 200 and start nothing', async () => {
		const trigger = await activeHost({ events: ['item_purchased'] });

		const ignored = await emit('successful_item_upload', { vendor_sku: 'X', errors: [], consignment_id: 1 });
		const other = await emit('order_shipped', { sku: 'S' });
		const taken = await emit('item_purchased', {});

		expect([ignored.status, other.status, taken.status]).toEqual([200, 200, 200]);
		expect(trigger.calls.map((c) => c.started)).toEqual([false, false, true]);
		expect(trigger.executions).toHaveLength(1);
		expect(trigger.executions[0].items[0].json.event).toBe('item_purchased');
	});

	it('"Other Events" takes undocumented operations and payloads without one', async () => {
		const trigger = await activeHost({ events: ['other'] });
		await emit('address_creation', { id: 1, errors: [] });
		await emit('order_shipped', { sku: 'S' });

		expect(trigger.executions.map((e) => e.items[0].json.event)).toEqual(['order_shipped']);
	});

	it('defaults to all events', async () => {
		const trigger = await activeHost();
		await emit('order_shipped', { sku: 'S' });
		await emit('address_creation', { id: 1, errors: [] });
		expect(trigger.executions.map((e) => e.items[0].json.event)).toEqual(['order_shipped', 'address_creation']);
	});
});

describe('Include Raw Body option', () => {
	it('adds the request body exactly as delivered, in raw_body', async () => {
		const trigger = await activeHost({ options: { includeRawBody: true } });
		const delivery = await emit('address_creation', { id: 3, errors: [] }, 'notification_event');

		const json = trigger.executions[0].items[0].json;
		expect(json.raw_body).toEqual(JSON.parse(delivery.rawBody));
		expect(json).toMatchObject({ event: 'address_creation', id: '3' });
	});

	it('is off by default', async () => {
		const trigger = await activeHost();
		await emit('address_creation', { id: 3, errors: [] });
		expect(trigger.executions[0].items[0].json).not.toHaveProperty('raw_body');
	});
});

describe('test URL', () => {
	it('a test event reaches the workflow in manual mode, then n8n stops listening and the vendor\'s setting is back', async () => {
		const trigger = await triggers.startHost();
		await trigger.listenForTestEvent();

		const delivery = await emit('address_creation', { id: 8, errors: [] });

		expect(delivery.url.startsWith(`${trigger.testUrl}?`)).toBe(true);
		expect(trigger.executions).toEqual([{ kind: 'test', items: [{ json: expect.objectContaining({ event: 'address_creation', id: '8' }) }] }]);
		expect(trigger.isListeningForTest).toBe(false);
		expect((await sandbox().admin.state()).vendor.preferences.webhook_enabled).toBe(false);
	});

	it('a filtered-out test event keeps n8n listening (nothing started)', async () => {
		const trigger = await triggers.startHost({ parameters: { events: ['item_purchased'] } });
		await trigger.listenForTestEvent();
		await emit('address_creation', { id: 8, errors: [] });
		expect(trigger.isListeningForTest).toBe(true);
		await trigger.stopListening();
		expect((await sandbox().admin.state()).vendor.preferences.webhook_enabled).toBe(false);
	});
});
