// "Listen for test event" against the vendor's single webhook URL, driven the way n8n drives it (harness:
// test/harness/trigger): refused while a production workflow receives the events; otherwise the test URL takes
// over and the vendor ends on a URL that works whatever happens meanwhile (activation or deactivation during
// listening, a failed or timed-out PATCH when listening stops, an n8n restart while listening).
import type { TriggerHost } from '../harness/trigger';
import { useTriggerHosts, VENDOR_OWN_URL as OLD_URL } from './trigger.helpers';

/** Another workflow's Consignment Vendor Trigger, on another n8n. */
const OTHER_TRIGGER_URL = 'https://other-n8n.example/webhook/0b9a3c3e-1d2f-4e5a-9b8c-7d6e5f4a3b2c/webhook';

const triggers = useTriggerHosts();
const { sandbox, startHost, vendorState, portal } = triggers;
let host: TriggerHost;

beforeEach(async () => {
	host = await startHost();
});

/** The vendor calls this host's test URL (with whatever the session keeps in its query), enabled. */
async function expectListening(on: TriggerHost = host) {
	const { url, enabled } = await vendorState();
	expect(enabled).toBe(true);
	expect(url?.startsWith(`${on.testUrl}?`)).toBe(true);
}

async function emitAddress(id: number) {
	const delivery = await sandbox().admin.emitEvent({ operation: 'address_creation', data: { id, errors: [] } });
	await triggers.idle();
	return delivery;
}

describe('while a production workflow receives the events', () => {
	it('refuses to listen, says what to do, and production keeps its URL and its events', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.activate();
		const registrations = () => (host.savedStaticData['node:Consignment Vendor Trigger'] as { registrations?: unknown }).registrations;
		const remembered = structuredClone(registrations());

		const refusal = await host.listenForTestEvent().catch((error: Error) => error);

		expect(refusal).toBeInstanceOf(Error);
		expect((refusal as Error).message).toMatch(/Cannot listen for a test event while this workflow is active.*Deactivate the workflow/);
		expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
		expect(host.isListeningForTest).toBe(false);
		await emitAddress(11);
		expect(host.executions).toEqual([{ kind: 'production', items: [{ json: expect.objectContaining({ id: '11' }) }] }]);
		expect(registrations()).toEqual(remembered);
		await host.deactivate();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	});

	it('refuses while another workflow\'s trigger (any n8n) holds the vendor\'s URL', async () => {
		await portal.set({ webhook_url: OTHER_TRIGGER_URL, webhook_enabled: true });

		await expect(host.listenForTestEvent()).rejects.toThrow(/another active workflow receives this vendor's events/);

		expect(await vendorState()).toEqual({ url: OTHER_TRIGGER_URL, enabled: true });
	});

	it('refuses while another workflow of this n8n holds it (an older node without webhookId: no UUID in its URL)', async () => {
		const other = await startHost({ workflowId: 'wf-other', webhookId: null, nodeName: 'Vendor Events' });
		// Same n8n = same origin: the other host stands in for another workflow of this instance.
		const sameInstanceUrl = other.productionUrl.replace(other.origin, host.origin);
		expect(sameInstanceUrl).toMatch(/\/webhook\/wf-other\/vendor%20events\/webhook$/);
		await portal.set({ webhook_url: sameInstanceUrl, webhook_enabled: true });

		await expect(host.listenForTestEvent()).rejects.toThrow(/another active workflow/);
		expect(await vendorState()).toEqual({ url: sameInstanceUrl, enabled: true });
	});

	it('listens when the production URL is there but switched off (nothing would be missed), and puts it back as it was', async () => {
		await host.activate();
		await portal.set({ webhook_enabled: false });

		await host.listenForTestEvent();
		await expectListening();
		await host.stopListening();

		expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: false });
	});
});

describe('without a production workflow receiving', () => {
	it('points the vendor at the test URL, runs the test event, then gives the vendor its own URL back', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });

		await host.listenForTestEvent();
		await expectListening();
		const delivery = await emitAddress(8);

		expect(delivery.status).toBe(200);
		expect(host.executions).toEqual([{ kind: 'test', items: [{ json: expect.objectContaining({ event: 'address_creation', id: '8' }) }] }]);
		expect(host.isListeningForTest).toBe(false);
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
		expect(host.savedStaticData).toEqual({});
	});

	it('gives back a URL whose webhooks were off as off', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: false });
		await host.listenForTestEvent();
		await host.stopListening();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: false });
	});

	it('switches webhooks off when the vendor had no URL', async () => {
		await host.listenForTestEvent();
		await host.stopListening();
		expect((await vendorState()).enabled).toBe(false);
	});

	it('a vendor URL of its own (not an n8n one) does not block listening', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.listenForTestEvent();
		await expectListening();
		await host.stopListening();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	});
});

describe('the vendor ends on a URL that works', () => {
	it('activation during listening takes over; deactivating during listening restores the vendor\'s own URL', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.listenForTestEvent();

		await host.activate();
		expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
		await host.deactivate();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
		await host.stopListening();

		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	});

	it('activation during listening, listening stops first: production keeps the URL, deactivation restores the vendor\'s own', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: false });
		await host.listenForTestEvent();
		await host.activate();

		await host.stopListening();
		expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
		await emitAddress(21);
		expect(host.executions.map((e) => e.kind)).toEqual(['production']);

		await host.deactivate();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: false });
	});

	it('a PATCH that fails when listening stops leaves the test URL; the next listening session puts the vendor\'s URL back', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.listenForTestEvent();
		await sandbox().admin.addFault({ kind: 'status', status: 500, count: 20, method: 'PATCH', pathPrefix: '/v1/vendor' });

		await host.stopListening();

		expect(host.methodCalls.at(-1)).toMatchObject({ method: 'delete', result: false });
		await expectListening();
		await sandbox().admin.clearFaults();
		await host.listenForTestEvent();
		await host.stopListening();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	});

	it('a dropped PATCH when listening stops: the next activation remembers the vendor\'s URL, not the test URL', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.listenForTestEvent();
		await sandbox().admin.addFault({ kind: 'drop', count: 20, method: 'PATCH', pathPrefix: '/v1/vendor' });

		await host.stopListening();
		await expectListening();
		await sandbox().admin.clearFaults();

		await host.activate();
		expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
		await host.deactivate();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	});

	it('a PATCH that times out when listening stops: stopping still ends (no hang), and the next listening session puts the vendor\'s URL back', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.listenForTestEvent();
		await sandbox().admin.addFault({ kind: 'latency', ms: 100_000, count: 20, method: 'PATCH', pathPrefix: '/v1/vendor' });

		const started = Date.now();
		await host.stopListening();

		expect(Date.now() - started).toBeLessThan(40_000);
		expect(host.methodCalls.at(-1)).toMatchObject({ method: 'delete', result: false });
		await sandbox().admin.clearFaults();
		await expectListening();
		await host.listenForTestEvent();
		await host.stopListening();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	}, 120_000);

	it('n8n restarting while listening (the session is forgotten): activating afterwards, then deactivating, restores the vendor\'s URL', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.listenForTestEvent();

		await host.restart();
		expect(host.isListeningForTest).toBe(false);
		await expectListening();

		await host.activate();
		await host.deactivate();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	});

	it('n8n restarting while listening, with the workflow active: the start takes the URL back for production', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: true });
		await host.activate();
		await portal.set({ webhook_enabled: false });
		await host.listenForTestEvent();

		await host.restart();

		expect(await vendorState()).toEqual({ url: host.productionUrl, enabled: true });
		await host.deactivate();
		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: true });
	});

	it('another n8n (or workflow) listening after a restart takes over a forgotten session and restores its vendor URL', async () => {
		await portal.set({ webhook_url: OLD_URL, webhook_enabled: false });
		await host.listenForTestEvent();
		await host.restart();

		const other = await startHost({ workflowId: 'wf-other', webhookId: '9f1e2d3c-4b5a-4697-8877-665544332211' });
		await other.listenForTestEvent();
		await expectListening(other);
		await other.stopListening();

		expect(await vendorState()).toEqual({ url: OLD_URL, enabled: false });
	});
});
