// n8n 1.x answers "Database is not ready!" (503) before routing while its SQLite ping fails on a loaded machine; CI
// once failed a check on it (the Upsert webhook, 2026-11-29). The e2e suite sends such a call again, and only such.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { CheckContext } from '../e2e/checks/types';
import { callWebhook } from '../e2e/checks/webhook-call';

let server: Server;
let answers: Array<[number, string]>;
let received: number;

beforeEach(async () => {
	received = 0;
	server = createServer((_req, res) => {
		const [status, body] = answers[Math.min(received++, answers.length - 1)];
		res.writeHead(status, { 'content-type': 'application/json' }).end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterEach(async () => await new Promise((resolve) => server.close(resolve)));

const ctx = () => ({ server: { server: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } } }) as unknown as CheckContext;
const notReady: [number, string] = [503, '{"code":503,"message":"Database is not ready!"}'];

it('a webhook call refused because the database is not ready is sent again until n8n answers', async () => {
	answers = [notReady, notReady, [200, '[{"operation":"create","count":1000}]']];
	await expect(callWebhook(ctx(), 'e2e-upsert-only-changed')).resolves.toEqual({ status: 200, answer: '[{"operation":"create","count":1000}]' });
	expect(received).toBe(3);
});

it('any other 503 is the answer: the workflow may have run', async () => {
	answers = [[503, '{"message":"Service Unavailable"}'], [200, '[]']];
	await expect(callWebhook(ctx(), 'e2e-upsert-only-changed')).resolves.toMatchObject({ status: 503 });
	expect(received).toBe(1);
});
