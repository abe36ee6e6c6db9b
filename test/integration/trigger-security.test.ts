// Signature verification and malformed requests, end to end: the sandbox signs its deliveries with its signing
// secret; the trigger checks them with the credential's Webhook Signing Secret. Direct requests cover what the
// sandbox never sends (no JSON, arrays, bad signatures on good bodies...).
import { createHmac } from 'node:crypto';

import { useTriggerHosts } from './trigger.helpers';

const SIGNING_CANARY = 'whsec_integration_5f1c9e';

const triggers = useTriggerHosts();
const { sandbox } = triggers;

const activeHost = async (webhookSigningSecret: string) => await triggers.activeHost({ credential: { webhookSigningSecret } });

async function post(url: string, body: string, headers: Record<string, string> = {}) {
	const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
	const text = await res.text();
	await triggers.idle();
	return { status: res.status, text };
}

const sign = (body: string, secret = SIGNING_CANARY) => createHmac('sha256', secret).update(body).digest('hex');

const EVENT = JSON.stringify({ body: { operation: 'address_creation', data: { id: 4, errors: [], timestamp: 't' } } });

describe('with a signing secret in the credential', () => {
	it('accepts the sandbox\'s signed deliveries', async () => {
		const trigger = await activeHost(SIGNING_CANARY);
		await sandbox().admin.setSigningSecret(SIGNING_CANARY);

		const delivery = await sandbox().admin.emitEvent({ operation: 'address_creation', data: { id: 4, errors: [] } });
		await trigger.idle();

		expect(delivery.headers['x-trr-signature']).toMatch(/^[0-9a-f]{64}$/);
		expect(delivery.status).toBe(200);
		expect(trigger.executions).toHaveLength(1);
	});

	it('refuses unsigned deliveries with 401 and starts nothing', async () => {
		const trigger = await activeHost(SIGNING_CANARY);
		await sandbox().admin.setSigningSecret(null);

		const delivery = await sandbox().admin.emitEvent({ operation: 'address_creation', data: { id: 4, errors: [] } });
		await trigger.idle();

		expect(delivery.status).toBe(401);
		expect(trigger.executions).toHaveLength(0);
	});

	it('refuses deliveries signed with another secret with 401 and starts nothing', async () => {
		const trigger = await activeHost(SIGNING_CANARY);
		await sandbox().admin.setSigningSecret('whsec_not_the_same');

		const delivery = await sandbox().admin.emitEvent({ operation: 'item_purchased', data: {} });
		await trigger.idle();

		expect(delivery.status).toBe(401);
		expect(trigger.executions).toHaveLength(0);
	});

	it('checks the exact bytes: a valid signature of a re-serialised body is refused', async () => {
		const trigger = await activeHost(SIGNING_CANARY);
		const pretty = JSON.stringify(JSON.parse(EVENT), null, 2);

		const res = await post(trigger.productionUrl, pretty, { 'X-TRR-Signature': sign(EVENT) });

		expect(res.status).toBe(401);
		expect(trigger.executions).toHaveLength(0);
	});

	it('accepts a correct signature on a direct request, whatever the header name\'s case', async () => {
		const trigger = await activeHost(SIGNING_CANARY);
		const res = await post(trigger.productionUrl, EVENT, { 'x-TRR-signature': sign(EVENT) });
		expect(res.status).toBe(200);
		expect(trigger.executions).toHaveLength(1);
	});

	it('checks the signature before the body: an unsigned non-JSON body is 401, a signed one 400', async () => {
		const trigger = await activeHost(SIGNING_CANARY);
		const junk = 'this is not json';

		const unsigned = await post(trigger.productionUrl, junk, { 'Content-Type': 'text/plain' });
		const signed = await post(trigger.productionUrl, junk, { 'Content-Type': 'text/plain', 'X-TRR-Signature': sign(junk) });

		expect([unsigned.status, signed.status]).toEqual([401, 400]);
		expect(trigger.executions).toHaveLength(0);
	});

	it('reveals nothing in its answers: no secret, no expected signature, no reason', async () => {
		const trigger = await activeHost(SIGNING_CANARY);
		const answers = [
			await post(trigger.productionUrl, EVENT),
			await post(trigger.productionUrl, EVENT, { 'X-TRR-Signature': sign(EVENT, 'wrong') }),
			await post(trigger.productionUrl, EVENT, { 'X-TRR-Signature': 'abc' }),
			await post(trigger.productionUrl, 'x', { 'X-TRR-Signature': sign('x') }),
			await post(trigger.productionUrl, EVENT, { 'X-TRR-Signature': sign(EVENT) }),
		];
		const unauthorized = answers.slice(0, 3);
		for (const answer of unauthorized) expect(answer).toEqual({ status: 401, text: '{"message":"Unauthorized"}' });
		for (const answer of answers) {
			expect(answer.text).not.toContain(SIGNING_CANARY);
			expect(answer.text).not.toContain(sign(EVENT));
			expect(answer.text.toLowerCase()).not.toContain('signature');
		}
	});
});

describe('without a signing secret in the credential', () => {
	it('accepts unsigned deliveries', async () => {
		const trigger = await activeHost('');
		const delivery = await sandbox().admin.emitEvent({ operation: 'address_creation', data: { id: 4, errors: [] } });
		await trigger.idle();
		expect(delivery.status).toBe(200);
		expect(trigger.executions).toHaveLength(1);
	});

	it('accepts signed deliveries too (the signature is not checked)', async () => {
		const trigger = await activeHost('');
		await sandbox().admin.setSigningSecret(SIGNING_CANARY);
		const delivery = await sandbox().admin.emitEvent({ operation: 'address_creation', data: { id: 4, errors: [] } });
		await trigger.idle();
		expect(delivery.status).toBe(200);
		expect(trigger.executions).toHaveLength(1);
	});
});

describe('malformed bodies', () => {
	const BAD: Array<[string, string, string]> = [
		['text that is not JSON', 'this is not json', 'text/plain'],
		['a JSON array', '[{"operation":"item_purchased"}]', 'text/plain'],
		['a JSON string', '"item_purchased"', 'text/plain'],
		['JSON null', 'null', 'text/plain'],
		['an empty body', '', 'text/plain'],
		['a JSON array sent as application/json', '[1,2]', 'application/json'],
		['a JSON number sent as application/json', '42', 'application/json'],
	];

	for (const [what, body, contentType] of BAD) {
		it(`answers ${what} with 400 and starts nothing`, async () => {
			const trigger = await activeHost('');
			const res = await post(trigger.productionUrl, body, { 'Content-Type': contentType });
			expect(res).toEqual({ status: 400, text: '{"message":"Bad request: the body must be a JSON object"}' });
			expect(trigger.executions).toHaveLength(0);
		});
	}

	it('leaves "application/json" that is not JSON to n8n, which answers 422 before the node runs', async () => {
		const trigger = await activeHost('');
		const res = await post(trigger.productionUrl, '{"body": ', { 'Content-Type': 'application/json' });
		expect(res.status).toBe(422);
		expect(trigger.calls[0]).toMatchObject({ status: 422, started: false });
		expect(trigger.executions).toHaveLength(0);
	});

	it('reads a JSON object sent with another content type from the raw bytes', async () => {
		const trigger = await activeHost('');
		const res = await post(trigger.productionUrl, EVENT, { 'Content-Type': 'text/plain' });
		expect(res.status).toBe(200);
		expect(trigger.executions[0].items[0].json).toMatchObject({ event: 'address_creation', id: '4' });
	});
});
