// The optional shipping-label download of item_purchased events: binary data through n8n-core's real
// httpRequest and prepareBinaryData; failures keep the event (label_error); the sender gets its 200 first.
import type { INodeParameters } from 'n8n-workflow';

import { LABEL_PDF, startLabelServer, type LabelServer } from '../harness/trigger/label-server';
import { useTriggerHosts } from './trigger.helpers';

const triggers = useTriggerHosts();
const { sandbox } = triggers;
let labels: LabelServer;

beforeAll(async () => {
	labels = await startLabelServer();
});

afterAll(async () => {
	await labels.close();
});

beforeEach(() => {
	labels.delayMs = 0;
	labels.requests.length = 0;
});

const activeHost = async (options: INodeParameters) =>
	await triggers.activeHost({ credential: { webhookSigningSecret: '' }, parameters: { options } });

async function purchase(pdfUrl: string) {
	const delivery = await sandbox().admin.emitEvent({ operation: 'item_purchased', data: { sku: 'TRR-77', pdf_url: pdfUrl } });
	await triggers.idle();
	return delivery;
}

describe('Download Shipping Label', () => {
	it('adds the label as binary data in the chosen field, without sending any credential to the label host', async () => {
		const trigger = await activeHost({ downloadLabel: true, labelBinaryProperty: 'label' });

		const delivery = await purchase(`${labels.url}/labels/TRR-77.pdf`);

		expect(delivery.status).toBe(200);
		const [item] = trigger.executions[0].items;
		expect(item.json).toMatchObject({ event: 'item_purchased', sku: 'TRR-77', pdf_url: `${labels.url}/labels/TRR-77.pdf` });
		expect(item.json).not.toHaveProperty('label_error');
		const binary = item.binary?.label;
		expect(binary).toMatchObject({ mimeType: 'application/pdf', fileName: 'TRR-77.pdf' });
		expect(Buffer.from(binary?.data ?? '', 'base64')).toEqual(LABEL_PDF);
		expect(labels.requests).toHaveLength(1);
		expect(labels.requests[0].headers.authorization).toBeUndefined();
	});

	it('keeps the event with label_error when the label host answers 404', async () => {
		const trigger = await activeHost({ downloadLabel: true });

		const delivery = await purchase(`${labels.url}/missing`);

		expect(delivery.status).toBe(200);
		const [item] = trigger.executions[0].items;
		expect(item.json).toMatchObject({ event: 'item_purchased', sku: 'TRR-77' });
		expect(item.json.label_error).toMatch(/could not be downloaded.*404/);
		expect(item.binary).toBeUndefined();
	});

	it('keeps the event with label_error when the label host cannot be reached', async () => {
		const closed = await startLabelServer();
		const deadUrl = `${closed.url}/labels/TRR-77.pdf`;
		await closed.close();
		const trigger = await activeHost({ downloadLabel: true });

		await purchase(deadUrl);

		const [item] = trigger.executions[0].items;
		expect(item.json.label_error).toMatch(/could not be downloaded/);
		expect(item.binary).toBeUndefined();
	});

	it('does not fetch a pdf_url that is not an absolute http(s) URL, and says so', async () => {
		const trigger = await activeHost({ downloadLabel: true });

		await purchase('/labels/TRR-77.pdf');

		const [item] = trigger.executions[0].items;
		expect(item.json.label_error).toBe('pdf_url is not an absolute http(s) URL, so the label was not downloaded');
		expect(labels.requests).toHaveLength(0);
	});

	it('answers the sender before the (slow) download finishes', async () => {
		const trigger = await activeHost({ downloadLabel: true });
		labels.delayMs = 1500;

		const started = Date.now();
		const delivery = await sandbox().admin.emitEvent({
			operation: 'item_purchased',
			data: { sku: 'TRR-77', pdf_url: `${labels.url}/labels/TRR-77.pdf` },
		});
		const answeredAfter = Date.now() - started;
		await trigger.idle();

		expect(delivery.status).toBe(200);
		expect(answeredAfter).toBeLessThan(1000);
		expect(trigger.executions[0].items[0].binary?.data).toBeDefined();
	});

	it('is off by default: nothing is downloaded', async () => {
		const trigger = await activeHost({});
		await purchase(`${labels.url}/labels/TRR-77.pdf`);
		expect(trigger.executions[0].items[0].binary).toBeUndefined();
		expect(labels.requests).toHaveLength(0);
	});

	it('only applies to item_purchased', async () => {
		const trigger = await activeHost({ downloadLabel: true });
		await sandbox().admin.emitEvent({ operation: 'address_creation', data: { id: 1, errors: [], pdf_url: `${labels.url}/labels/A.pdf` } });
		await trigger.idle();
		expect(trigger.executions[0].items[0].binary).toBeUndefined();
		expect(labels.requests).toHaveLength(0);
	});
});
