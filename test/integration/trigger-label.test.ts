// The optional shipping-label download of item_purchased events: binary data through n8n-core's real
// httpRequest and prepareBinaryData; only from signed requests or trusted hosts, https and public addresses
// unless allowed, a size limit and a deadline; a label not fetched keeps the event (label_error); the sender
// gets its 200 first.
import type { INodeParameters } from 'n8n-workflow';

import { LABEL_PDF, LOGIN_PAGE, startLabelServer, type LabelServer } from '../harness/trigger/label-server';
import { useTriggerHosts } from './trigger.helpers';

const SIGNING_SECRET = 'whsec_label_tests_7c1d';

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

/** The label server is http://127.0.0.1: these options let it be used, as for a test server or internal mirror. */
const LOCAL_TRUSTED = { downloadLabel: true, labelAllowPrivateHosts: true, labelTrustedHosts: '127.0.0.1' };

const activeHost = async (options: INodeParameters, webhookSigningSecret = '') => {
	if (webhookSigningSecret !== '') await sandbox().admin.setSigningSecret(webhookSigningSecret);
	return await triggers.activeHost({ credential: { webhookSigningSecret }, parameters: { options } });
};

async function purchase(pdfUrl: string) {
	const delivery = await sandbox().admin.emitEvent({ operation: 'item_purchased', data: { sku: 'TRR-77', pdf_url: pdfUrl } });
	await triggers.idle();
	return delivery;
}

describe('Download Shipping Label', () => {
	it('adds the label as binary data in the chosen field, without sending any credential to the label host', async () => {
		const trigger = await activeHost({ ...LOCAL_TRUSTED, labelBinaryProperty: 'label' });

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
		const trigger = await activeHost(LOCAL_TRUSTED);

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
		const trigger = await activeHost(LOCAL_TRUSTED);

		await purchase(deadUrl);

		const [item] = trigger.executions[0].items;
		expect(item.json.label_error).toMatch(/could not be downloaded/);
		expect(item.binary).toBeUndefined();
	});

	it('does not fetch a pdf_url that is not an absolute http(s) URL, and says so', async () => {
		const trigger = await activeHost(LOCAL_TRUSTED);

		await purchase('/labels/TRR-77.pdf');

		const [item] = trigger.executions[0].items;
		expect(item.json.label_error).toBe('pdf_url is not an absolute http(s) URL, so the label was not downloaded');
		expect(labels.requests).toHaveLength(0);
	});

	it('answers the sender before the (slow) download finishes', async () => {
		const trigger = await activeHost(LOCAL_TRUSTED);
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
		const trigger = await activeHost(LOCAL_TRUSTED);
		await sandbox().admin.emitEvent({ operation: 'address_creation', data: { id: 1, errors: [], pdf_url: `${labels.url}/labels/A.pdf` } });
		await trigger.idle();
		expect(trigger.executions[0].items[0].binary).toBeUndefined();
		expect(labels.requests).toHaveLength(0);
	});
});

describe('which labels are fetched', () => {
	it('a signed request\'s label is fetched from any host (here with private hosts allowed)', async () => {
		const trigger = await activeHost({ downloadLabel: true, labelAllowPrivateHosts: true }, SIGNING_SECRET);

		const delivery = await purchase(`${labels.url}/labels/TRR-77.pdf`);

		expect(delivery.status).toBe(200);
		expect(trigger.executions[0].items[0].binary?.data).toBeDefined();
		expect(labels.requests).toHaveLength(1);
	});

	it('an unsigned request\'s label is not fetched without Trusted Label Hosts; the event still runs and says why', async () => {
		const trigger = await activeHost({ downloadLabel: true, labelAllowPrivateHosts: true });

		const delivery = await purchase(`${labels.url}/labels/TRR-77.pdf`);

		expect(delivery.status).toBe(200);
		const [item] = trigger.executions[0].items;
		expect(item.json).toMatchObject({ event: 'item_purchased', sku: 'TRR-77' });
		expect(item.json.label_error).toMatch(/not downloaded: the request was not signed .*Trusted Label Hosts is empty/);
		expect(item.binary).toBeUndefined();
		expect(labels.requests).toHaveLength(0);
	});

	it('a host outside Trusted Label Hosts is not fetched, signed or not', async () => {
		const trigger = await activeHost({ ...LOCAL_TRUSTED, labelTrustedHosts: 'labels.example.com, *.cdn.example.com' }, SIGNING_SECRET);

		await purchase(`${labels.url}/labels/TRR-77.pdf`);

		expect(trigger.executions[0].items[0].json.label_error).toMatch(/label host 127\.0\.0\.1 is not in Trusted Label Hosts/);
		expect(labels.requests).toHaveLength(0);
	});

	it('plain http is not fetched unless allowed', async () => {
		const trigger = await activeHost({ downloadLabel: true, labelTrustedHosts: '127.0.0.1' });

		await purchase(`${labels.url}/labels/TRR-77.pdf`);

		expect(trigger.executions[0].items[0].json.label_error).toMatch(/not an https URL.*Allow HTTP and Private Label Hosts/);
		expect(labels.requests).toHaveLength(0);
	});

	it('a loopback address or local host name is not fetched unless allowed', async () => {
		const port = new URL(labels.url).port;
		const trigger = await activeHost({ downloadLabel: true, labelTrustedHosts: '127.0.0.1, localhost' });

		await purchase(`https://127.0.0.1:${port}/labels/TRR-77.pdf`);
		await purchase(`https://localhost:${port}/labels/TRR-77.pdf`);

		const errors = trigger.executions.map((e) => e.items[0].json.label_error);
		expect(errors[0]).toMatch(/label host 127\.0\.0\.1 is a private, loopback or link-local address/);
		expect(errors[1]).toMatch(/label host localhost is a private, loopback or link-local address or a local name/);
		expect(labels.requests).toHaveLength(0);
	});

	it('a redirect is judged again: to a host outside the list it is not followed', async () => {
		const trigger = await activeHost(LOCAL_TRUSTED);
		const elsewhere = `${labels.url.replace('127.0.0.1', 'localhost')}/labels/TRR-77.pdf`;

		await purchase(`${labels.url}/redirect?to=${encodeURIComponent(elsewhere)}`);

		expect(trigger.executions[0].items[0].json.label_error).toMatch(/redirected to http:\/\/localhost:\d+\/labels\/TRR-77\.pdf; the label host localhost is not in Trusted Label Hosts/);
		expect(labels.requests.map((r) => r.path.split('?')[0])).toEqual(['/redirect']);
	});

	it('a redirect within the rules is followed', async () => {
		const trigger = await activeHost(LOCAL_TRUSTED);

		await purchase(`${labels.url}/redirect?to=${encodeURIComponent('/labels/TRR-77.pdf')}`);

		const [item] = trigger.executions[0].items;
		expect(item.json.label_error).toBeUndefined();
		expect(Buffer.from(item.binary?.data?.data ?? '', 'base64')).toEqual(LABEL_PDF);
	});
});

describe('size limit and deadline', () => {
	const MB = 1_048_576;

	it('a label over the size limit is not kept (declared length), and the event says so', async () => {
		const trigger = await activeHost({ ...LOCAL_TRUSTED, labelMaxSizeMb: 1 });

		await purchase(`${labels.url}/big/${2 * MB}.pdf`);

		const [item] = trigger.executions[0].items;
		expect(item.json.label_error).toBe('The label was not downloaded: it is larger than the limit of 1 MB');
		expect(item.binary).toBeUndefined();
	});

	it('a label over the size limit without a declared length is cut off while it streams', async () => {
		const trigger = await activeHost({ ...LOCAL_TRUSTED, labelMaxSizeMb: 1 });

		await purchase(`${labels.url}/big-chunked/${3 * MB}.pdf`);

		expect(trigger.executions[0].items[0].json.label_error).toBe('The label was not downloaded: it is larger than the limit of 1 MB');
	});

	it('a label just under the limit is kept', async () => {
		const trigger = await activeHost({ ...LOCAL_TRUSTED, labelMaxSizeMb: 1 });

		await purchase(`${labels.url}/big-chunked/${MB - 10}.pdf`);

		const [item] = trigger.executions[0].items;
		expect(item.json.label_error).toBeUndefined();
		expect(Buffer.from(item.binary?.data?.data ?? '', 'base64')).toHaveLength(MB - 10);
	});

	it('the 20 MB default limit applies when the option is not set', async () => {
		const trigger = await activeHost(LOCAL_TRUSTED);

		await purchase(`${labels.url}/big/${21 * MB}.pdf`);

		expect(trigger.executions[0].items[0].json.label_error).toBe('The label was not downloaded: it is larger than the limit of 20 MB');
	});

	it('a host that does not answer in time: the event runs with label_error', async () => {
		const trigger = await activeHost({ ...LOCAL_TRUSTED, labelTimeoutSeconds: 1 });
		// Far beyond the 1 s deadline, so a loaded machine's slower delivery still ends well before the host answers.
		labels.delayMs = 6000;

		const started = Date.now();
		await purchase(`${labels.url}/labels/TRR-77.pdf`);

		expect(trigger.executions[0].items[0].json.label_error).toBe('The label could not be downloaded: no complete answer within 1 s (timed out; the trigger\'s Label Download Timeout option)');
		expect(Date.now() - started).toBeLessThan(5000);
	});

	it('a body that trickles past the deadline is abandoned too (the deadline covers the whole download)', async () => {
		const trigger = await activeHost({ ...LOCAL_TRUSTED, labelTimeoutSeconds: 1 });
		labels.delayMs = 3000;

		await purchase(`${labels.url}/slow-body/TRR-77.pdf`);

		expect(trigger.executions[0].items[0].json.label_error).toMatch(/timed out/);
		expect(trigger.executions[0].items[0].binary).toBeUndefined();
	});
});

describe('what the label host answers', () => {
	it('a 503 asking for a 30 s pause is not waited for when that ends past the deadline: the event says HTTP 503 at once', async () => {
		const trigger = await activeHost({ ...LOCAL_TRUSTED, labelTimeoutSeconds: 2 });

		const started = Date.now();
		await purchase(`${labels.url}/unavailable/30/5/deadline.pdf`);

		const [item] = trigger.executions[0].items;
		expect(item.json.label_error).toBe('The label could not be downloaded: HTTP 503');
		expect(item.binary).toBeUndefined();
		expect(labels.requests).toHaveLength(1);
		// Well inside the 30 s the service asked for (before the fix: 3 pauses of 30 s).
		expect(Date.now() - started).toBeLessThan(10_000);
		// The 503's body never ends: the download let it go when it gave up, not when its deadline passed.
		for (let waited = 0; waited < 1_000 && !labels.requests[0].closed; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
		expect(labels.requests[0].closed).toBe(true);
	}, 120_000);

	it('a 503 asking for a short pause is repeated and the label kept; the unread body of the 503 is let go at once', async () => {
		const trigger = await activeHost(LOCAL_TRUSTED);

		await purchase(`${labels.url}/unavailable/1/1/retried.pdf`);

		const [item] = trigger.executions[0].items;
		expect(item.json.label_error).toBeUndefined();
		expect(Buffer.from(item.binary?.label?.data ?? item.binary?.data?.data ?? '', 'base64')).toEqual(LABEL_PDF);
		expect(labels.requests).toHaveLength(2);
		// The 503's body never ends: only the client closing it frees the connection (the server hears of it soon).
		for (let waited = 0; waited < 1_000 && !labels.requests[0].closed; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
		expect(labels.requests[0].closed).toBe(true);
	});

	it('an HTML page answered with 200 (a login page) is not saved as the label; the event names the status and the content type', async () => {
		const trigger = await activeHost(LOCAL_TRUSTED);

		await purchase(`${labels.url}/typed/${encodeURIComponent('text/html; charset=utf-8')}/html/login.pdf`);

		const [item] = trigger.executions[0].items;
		expect(item.json.label_error).toBe(
			'The label was not saved: the label host answered HTTP 200 with content type text/html, which is not a PDF (a login or error page, or the wrong URL)',
		);
		expect(item.binary).toBeUndefined();
	});

	it('application/octet-stream is kept when the bytes are a PDF (saved as application/pdf), refused when they are not', async () => {
		const octet = encodeURIComponent('application/octet-stream');
		const trigger = await activeHost(LOCAL_TRUSTED);

		await purchase(`${labels.url}/typed/${octet}/pdf/octet.pdf`);
		await purchase(`${labels.url}/typed/${octet}/html/octet-login.pdf`);

		const [pdf, html] = trigger.executions.map((execution) => execution.items[0]);
		expect(pdf.json.label_error).toBeUndefined();
		expect(pdf.binary?.data).toMatchObject({ mimeType: 'application/pdf', fileName: 'octet.pdf' });
		expect(Buffer.from(pdf.binary?.data?.data ?? '', 'base64')).toEqual(LABEL_PDF);
		expect(html.json.label_error).toMatch(/answered HTTP 200 with content type application\/octet-stream, which is not a PDF/);
		expect(html.binary).toBeUndefined();
		expect(LOGIN_PAGE.includes('%PDF-')).toBe(false);
	});
});
