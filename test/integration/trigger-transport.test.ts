// Activation and deactivation through the package's shared transport: a 429 or a 5xx on GET/PATCH /v1/vendor is
// retried and the step succeeds; a service that never answers fails it with a clear timeout error. (Issue 11,
// point 3: the retries come with the shared transport in nodes/shared; vendorApi.ts's vendorRequest is the one
// function that uses it.)
import { VendorPortal } from '../harness/trigger/vendor-client';
import { useTriggerHosts } from './trigger.helpers';

const OLD_URL = 'https://hooks.vendor.example/consignment';

const triggers = useTriggerHosts();
const { sandbox, startHost, vendorState } = triggers;

async function vendorCalls() {
	return (await sandbox().admin.requests()).filter((r) => r.path === '/v1/vendor').map((r) => `${r.method} ${r.status}`);
}

beforeEach(async () => {
	await new VendorPortal(sandbox()).set({ webhook_url: OLD_URL, webhook_enabled: true });
	await sandbox().admin.clearRequests();
});

it('a 429 on activation\'s GET is retried and activation succeeds', async () => {
	const host = await startHost();
	await sandbox().admin.addFault({ kind: 'rateLimit', retryAfterSeconds: 1, method: 'GET', pathPrefix: '/v1/vendor' });

	await host.activate();

	expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
	expect((await vendorCalls())[0]).toBe('GET 429');
});

it('a 503 on activation\'s PATCH is retried and activation succeeds', async () => {
	const host = await startHost();
	await sandbox().admin.addFault({ kind: 'status', status: 503, method: 'PATCH', pathPrefix: '/v1/vendor' });

	await host.activate();

	expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
	expect((await vendorCalls()).filter((c) => c.startsWith('PATCH'))).toEqual(['PATCH 503', 'PATCH 200']);
});

it('a 429 on activation\'s PATCH and a 503 on its GET are retried', async () => {
	const host = await startHost();
	await sandbox().admin.addFault({ kind: 'status', status: 503, method: 'GET', pathPrefix: '/v1/vendor' });
	await sandbox().admin.addFault({ kind: 'rateLimit', retryAfterSeconds: 1, method: 'PATCH', pathPrefix: '/v1/vendor' });

	await host.activate();

	expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
});

it('a 503 on deactivation\'s PATCH is retried and the previous URL comes back', async () => {
	const host = await startHost();
	await host.activate();
	await sandbox().admin.addFault({ kind: 'status', status: 503, method: 'PATCH', pathPrefix: '/v1/vendor' });

	await host.deactivate();

	expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	expect(host.methodCalls.at(-1)).toMatchObject({ method: 'delete', result: true });
});

it('a PATCH that hangs fails activation with a clear timeout error, long before the service would answer', async () => {
	const host = await startHost();
	await sandbox().admin.addFault({ kind: 'latency', ms: 100_000, count: 10, method: 'PATCH', pathPrefix: '/v1/vendor' });

	const started = Date.now();
	const error = (await host.activate().catch((e: unknown) => e)) as Error;

	expect(error).toBeInstanceOf(Error);
	expect(error.message).toMatch(/Could not change the vendor's webhook settings \(PATCH \/v1\/vendor\): .*tim(ed|e) ?out/i);
	expect(Date.now() - started).toBeLessThan(90_000);
	expect(host.isActive).toBe(false);
	await sandbox().admin.clearFaults();
}, 120_000);
