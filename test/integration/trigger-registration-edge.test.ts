// Registration in less common situations: n8n's public URL changing between restarts, nodes without a
// webhookId, API failures during activation and deactivation, a Base URL with a trailing slash.
import { isTokenExchange } from './nodeRun.helpers';
import { useTriggerHosts, VENDOR_OWN_URL as OLD_URL } from './trigger.helpers';


const triggers = useTriggerHosts();
const { sandbox, startHost, vendorState, portal } = triggers;

it('n8n restarting under a new public URL moves the registration and still restores the vendor\'s own URL', async () => {
	await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
	const before = await startHost();
	await before.activate();
	// Same workflow and node, served from another address (e.g. WEBHOOK_URL changed), same saved static data.
	const after = await startHost();
	after.savedStaticData = structuredClone(before.savedStaticData);
	expect(after.productionUrl).not.toBe(before.productionUrl);

	await after.activate('init');
	expect(await vendorState()).toEqual({ url: after.productionUrl, enabled: true });
	expect(after.savedStaticData).toEqual({
		'node:Consignment Vendor Trigger': {
			registrations: { [after.productionUrl]: { previousUrl: OLD_URL, previousEnabled: true } },
		},
	});

	await after.deactivate();
	expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
});

it('works for a node without a webhookId (older workflows: URL built from workflow id and node name)', async () => {
	await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
	const host = await startHost({ webhookId: null, nodeName: 'Vendor Events' });
	expect(host.productionUrl).toMatch(/\/webhook\/wf-trigger-1\/vendor%20events\/webhook$/);

	await host.listenForTestEvent();
	await host.activate();
	await host.stopListening();
	expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
	await host.deactivate();

	// What the listening session replaced is what comes back, never the test URL.
	expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
});

it('a failed PATCH during activation fails the activation clearly, changes nothing and keeps no memory', async () => {
	await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
	const host = await startHost();
	// Persistent: a single 503 is repeated by the transport and activation succeeds.
	await sandbox().admin.addFault({ kind: 'status', status: 503, count: 10, method: 'PATCH', pathPrefix: '/v1/vendor' });

	await expect(host.activate()).rejects.toThrow(
		/Could not change the vendor's webhook settings \(PATCH \/v1\/vendor\): .*503/,
	);

	expect(host.isActive).toBe(false);
	expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	// n8n saves static data only after a successful activation; its clean-up runs on the saved copy.
	expect(host.savedStaticData).toEqual({});
});

it('a failed activation error carries no token or client secret', async () => {
	const host = await startHost();
	await sandbox().admin.addFault({ kind: 'status', status: 500, method: 'GET', pathPrefix: '/v1/vendor' });

	const error = (await host.activate().catch((e: unknown) => e)) as Error;

	expect(error.message).toMatch(/Could not read the vendor's webhook settings/);
	const serialised = JSON.stringify(error, Object.getOwnPropertyNames(error));
	expect(serialised).not.toContain(sandbox().clientSecret);
	expect(serialised).not.toMatch(/Bearer\s+\S{8,}/);
});

it('deactivating while the API is unreachable does not throw, keeps the memory, and a later cycle restores', async () => {
	await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
	const host = await startHost();
	await host.activate();
	const remembered = structuredClone(host.savedStaticData);
	// As many as the transport's tries of a GET (4): unreachable for this deactivation, reachable after.
	await sandbox().admin.addFault({ kind: 'drop', count: 4, method: 'GET', pathPrefix: '/v1/vendor' });

	await host.deactivate();

	expect(host.methodCalls.at(-1)).toMatchObject({ method: 'delete', result: false });
	expect(host.savedStaticData).toEqual(remembered);
	expect((await vendorState()).url).toBe(host.productionUrl);

	await host.activate();
	await host.deactivate();
	expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
});

it('tolerates a trailing slash in the credential\'s Base URL', async () => {
	const host = await startHost({ credential: { baseUrl: `${sandbox().baseUrl}/` } });
	await host.activate();

	expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
	const calls = (await sandbox().admin.requests()).filter((r) => r.path.includes('vendor'));
	expect(calls.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
		'GET /v1/vendor 200', // checkExists
		'GET /v1/vendor 200', // create: what is there now
		'PATCH /v1/vendor 200',
	]);
});

// useSandbox() empties the credential's token cache before each test, so this run starts without a token.
it('uses one token exchange for checkExists, create and delete', async () => {
	const host = await startHost();
	await host.activate();
	await host.deactivate();
	const tokenRequests = (await sandbox().admin.requests()).filter(isTokenExchange);
	expect(tokenRequests).toHaveLength(1);
});

it('a test URL left by an older version (no marker) is never restored: activation then deactivation switches webhooks off', async () => {
	const host = await startHost();
	await portal.set({ webhook_url: host.testUrl, webhook_enabled: true });

	await host.activate();
	await host.deactivate();

	const after = await vendorState();
	expect(after.url === host.testUrl && after.enabled).toBe(false);
});
