// Vendor → Get / Update through n8n-core against the sandbox: the request sent and the node's output.
import { runNode, jsonTypes, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();

describe('Vendor → Get', () => {
	it('sends GET /v1/vendor and outputs the vendor profile as returned', async () => {
		const { result, items, requests } = await runNode(sandbox(), { resource: 'vendor', operation: 'get' });
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/v1/vendor', query: {}, status: 200 });
		const { vendor } = await sandbox().admin.state();
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({ type: vendor.type, webhook_url: vendor.webhook_url, preferences: vendor.preferences });
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('Vendor → Update', () => {
	it('sends only the webhook URL when only it was added (flat contract body)', async () => {
		const { result, items, requests } = await runNode(sandbox(), {
			resource: 'vendor',
			operation: 'update',
			updateFields: { webhookUrl: ' https://hooks.example.com/vendor ' },
		});
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'PATCH', path: '/v1/vendor', status: 200 });
		expect(requests[0].body).toEqual({ webhook_url: 'https://hooks.example.com/vendor' });
		expect(items).toEqual([{ json: { success: true, webhook_url: 'https://hooks.example.com/vendor' }, pairedItem: { item: 0 } }]);
		expect((await sandbox().admin.state()).vendor.webhook_url).toBe('https://hooks.example.com/vendor');
	});

	it('sends webhook_enabled as a JSON boolean, and false is sent', async () => {
		const { requests, items } = await runNode(sandbox(), {
			resource: 'vendor',
			operation: 'update',
			updateFields: { webhookEnabled: false },
		});
		expect(requests[0].body).toEqual({ webhook_enabled: false });
		expect(jsonTypes(requests[0].body)).toEqual({ webhook_enabled: 'boolean' });
		expect(items[0].json).toEqual({ success: true, webhook_enabled: false });
		expect((await sandbox().admin.state()).vendor.preferences.webhook_enabled).toBe(false);
	});

	it('sends both fields when both were added', async () => {
		const { requests } = await runNode(sandbox(), {
			resource: 'vendor',
			operation: 'update',
			updateFields: { webhookUrl: 'https://hooks.example.com/x', webhookEnabled: true },
		});
		expect(requests[0].body).toEqual({ webhook_url: 'https://hooks.example.com/x', webhook_enabled: true });
	});

	it('refuses an empty update and a URL that is not http(s), naming the item, without sending anything', async () => {
		const empty = await runNode(sandbox(), { resource: 'vendor', operation: 'update', updateFields: {} });
		expect(empty.result.error?.message).toMatch(/Item index 0: add at least one field to update/);
		expect(empty.requests).toHaveLength(0);

		const bad = await runNode(sandbox(), {
			resource: 'vendor',
			operation: 'update',
			updateFields: { webhookUrl: '={{ $json.url }}' },
		}, { inputItems: [{ url: 'https://ok.example.com/a' }, { url: 'ftp://nope.example.com' }], settings: { continueOnFail: true } });
		expect(bad.requests).toHaveLength(1);
		expect(bad.items).toHaveLength(2);
		expect(bad.items[0].json).toMatchObject({ success: true });
		expect(String(bad.items[1].json.error)).toMatch(/Item index 1: webhook_url must be an http\(s\) URL/);
	});
});

describe("n8n's Batching option (Request Options), as on every per-item operation", () => {
	it('sends Items per Batch, then pauses Batch Interval before the next batch; outputs stay paired in order', async () => {
		const started = Date.now();
		const { result, items, requests } = await runNode(
			sandbox(),
			{ resource: 'vendor', operation: 'get', requestOptions: { batching: { batch: { batchSize: 2, batchInterval: 600 } } } },
			{ inputItems: [{}, {}, {}, {}, {}] },
		);
		const elapsed = Date.now() - started;
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(5);
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		// Three batches (2, 2, 1): two pauses of 600 ms at least; a lower bound, which no slow machine breaks.
		expect(elapsed).toBeGreaterThanOrEqual(1200);
	});
});
