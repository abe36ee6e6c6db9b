// Order → Cancel through n8n-core against the sandbox.
import { jsonTypes, runNode, useSandbox } from './nodeRun.helpers';

const sandbox = useSandbox();
const SEEDED_ORDER_SKU = 'TRR-ORD-000001';

describe('Order → Cancel', () => {
	it('sends POST /v1/cancellations {sku} (a JSON string) and outputs the service answer', async () => {
		const { result, items, requests } = await runNode(sandbox(), { resource: 'order', operation: 'cancel', sku: ` ${SEEDED_ORDER_SKU} ` });
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/cancellations', query: {}, status: 200 });
		expect(requests[0].body).toEqual({ sku: SEEDED_ORDER_SKU });
		expect(jsonTypes(requests[0].body)).toEqual({ sku: 'string' });
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ sku: SEEDED_ORDER_SKU, status: 'cancelled' });
		const { orders } = await sandbox().admin.state();
		expect(orders.find((o) => o.sku === SEEDED_ORDER_SKU)?.status).toBe('cancelled');
	});

	it('a vendor SKU instead of the platform SKU: 404 with the hint to use the webhook\'s sku', async () => {
		const { result } = await runNode(sandbox(), { resource: 'order', operation: 'cancel', sku: 'SBX-1000' });
		expect(result.error?.message).toMatch(/^No order with platform SKU SBX-1000 was found/);
		expect(result.error?.description).toMatch(/platform "sku" from the order webhook \(item_purchased\), not your vendor_sku/);
	});

	it('a second cancellation reports the service\'s status and message', async () => {
		await runNode(sandbox(), { resource: 'order', operation: 'cancel', sku: SEEDED_ORDER_SKU });
		const again = await runNode(sandbox(), { resource: 'order', operation: 'cancel', sku: SEEDED_ORDER_SKU });
		expect(again.result.error?.message).toBe(`The service answered HTTP 409: Order ${SEEDED_ORDER_SKU} is already cancelled`);
	});

	it('an empty SKU fails before any request, naming the field and the item', async () => {
		const { result, requests } = await runNode(
			sandbox(),
			{ resource: 'order', operation: 'cancel', sku: '={{ $json.sku }}' },
			{ inputItems: [{ sku: '' }] },
		);
		expect(result.error?.message).toMatch(/^Item index 0: sku is required/);
		expect(requests).toHaveLength(0);
	});
});
