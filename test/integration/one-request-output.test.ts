// One-request operations (Vendor Get, Order Cancel, …) yield exactly one output item per input item, with an object
// as its json, whatever the service answers where the contract does not show the body: a text body, an empty list.
// The API is a tiny local server here (the sandbox always answers JSON objects); the token still comes from the sandbox.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CredentialStore, sandboxCredential } from '../harness';
import { runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

let server: Server;
let baseUrl: string;
const answers: Record<string, { type: string; body: string }> = {
	'POST /v1/cancellations': { type: 'text/plain', body: 'Cancelled' },
	'GET /v1/vendor': { type: 'application/json', body: '[]' },
};

beforeAll(async () => {
	server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			const answer = answers[`${req.method} ${(req.url ?? '').split('?')[0]}`];
			res.writeHead(answer ? 200 : 404, { 'Content-Type': answer?.type ?? 'application/json' });
			res.end(answer?.body ?? '{"error":"not found"}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

const storeFor = () => new CredentialStore([sandboxCredential(sandbox(), { baseUrl })]);

describe('one-request operations: exactly one object item per input item', () => {
	it('Order → Cancel answered with a text body: the text under response, paired with its input', async () => {
		const { items, result } = await runNode(sandbox(), { resource: 'order', operation: 'cancel', sku: '={{ $json.sku }}' }, {
			inputItems: [{ sku: 'A' }, { sku: 'B' }],
			store: storeFor(),
		});
		expect(result.error).toBeUndefined();
		expect(items.map((item) => [item.json, item.pairedItem])).toEqual([
			[{ response: 'Cancelled' }, { item: 0 }],
			[{ response: 'Cancelled' }, { item: 1 }],
		]);
	});

	it('Vendor → Get answered with an empty list: one empty item, not none', async () => {
		const { items, result } = await runNode(sandbox(), { resource: 'vendor', operation: 'get' }, { inputItems: [{}], store: storeFor() });
		expect(result.error).toBeUndefined();
		expect(items).toEqual([{ json: {}, pairedItem: { item: 0 } }]);
	});
});
