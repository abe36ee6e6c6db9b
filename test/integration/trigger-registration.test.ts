// The trigger's webhook registration, driven the way n8n drives it (activation, restart, deactivation, test
// listening) with n8n-core's real HookContext, against the sandbox's real GET/PATCH /v1/vendor.
import type { TriggerHost } from '../harness/trigger';
import { useTriggerHosts, VENDOR_OWN_URL as OLD_URL } from './trigger.helpers';

const OTHER_URL = 'https://someone-else.example/hook';

const triggers = useTriggerHosts();
const { sandbox, vendorState, portal } = triggers;
let host: TriggerHost;

beforeEach(async () => {
	host = await triggers.startHost();
});

async function vendorPatches() {
	return (await sandbox().admin.requests()).filter((r) => r.method === 'PATCH' && r.path === '/v1/vendor');
}

describe('activation', () => {
	it('points the vendor webhook at the production URL, enabled, with the contract\'s flat PATCH body', async () => {
		await host.activate();

		expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
		const patches = await vendorPatches();
		expect(patches).toHaveLength(1);
		expect(patches[0].body).toEqual({ webhook_url: host.productionUrl, webhook_enabled: true });
		expect(patches[0].status).toBe(200);
	});

	it('remembers the vendor\'s previous URL in the workflow\'s saved static data', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });

		await host.activate();

		expect(host.savedStaticData).toEqual({
			'node:Consignment Vendor Trigger': {
				registrations: { [host.productionUrl]: { previousUrl: OLD_URL, previousEnabled: true } },
			},
		});
	});
});

describe('deactivation', () => {
	it('gives a vendor that already had a URL its URL and enabled flag back', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.activate();

		await host.deactivate();

		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
		expect(host.savedStaticData).toEqual({ 'node:Consignment Vendor Trigger': {} });
	});

	it('restores a previous URL whose webhooks were switched off as switched off', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: false });
		await host.activate();
		expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });

		await host.deactivate();

		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: false });
	});

	it('switches webhooks off when the vendor had no URL before', async () => {
		await host.activate();

		await host.deactivate();

		expect((await vendorState()).enabled).toBe(false);
		const lastPatch = (await vendorPatches()).at(-1);
		expect(lastPatch?.body).toEqual({ webhook_enabled: false });
	});

	it('leaves a URL someone else set in the meantime untouched, and forgets what it remembered', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.activate();
		await portal.set({ webhook_url: OTHER_URL, webhook_enabled: true });
		await sandbox().admin.clearRequests();

		await host.deactivate();

		expect(await vendorState()).toEqual({ url: OTHER_URL, enabled: true });
		expect(await vendorPatches()).toHaveLength(0);
		expect(host.savedStaticData).toEqual({ 'node:Consignment Vendor Trigger': {} });
	});

	it('restores the previous URL when webhooks were only switched off meanwhile (the URL is still ours)', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.activate();
		await portal.set({ webhook_enabled: false });

		await host.deactivate();

		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	});
});

describe('restart (n8n re-runs checkExists/create at every start)', () => {
	it('changes nothing and stores nothing again when the registration is still in place', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.activate();
		const savedAfterActivation = structuredClone(host.savedStaticData);
		const savesAfterActivation = host.staticDataSaves;
		await sandbox().admin.clearRequests();

		await host.restart();
		await host.restart();

		expect(await vendorPatches()).toHaveLength(0);
		expect(host.staticDataSaves).toBe(savesAfterActivation);
		expect(host.savedStaticData).toEqual(savedAfterActivation);
		expect(host.methodCalls.slice(-2).map((c) => [c.method, c.activation, c.result])).toEqual([
			['checkExists', 'init', true],
			['checkExists', 'init', true],
		]);
	});

	it('re-enables webhooks switched off meanwhile without overwriting the remembered previous URL', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.activate();
		await portal.set({ webhook_enabled: false });

		await host.restart();

		expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
		expect(host.savedStaticData).toEqual({
			'node:Consignment Vendor Trigger': {
				registrations: { [host.productionUrl]: { previousUrl: OLD_URL, previousEnabled: true } },
			},
		});
		await host.deactivate();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	});
});

// Test listening: trigger-test-listening.test.ts.
