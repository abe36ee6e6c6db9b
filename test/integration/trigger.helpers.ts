// Shared by the trigger integration tests: the file's sandbox (useSandbox) and Consignment Vendor Trigger hosts
// on it (test/harness/trigger), each closed after its test.
import { CredentialStore, sandboxCredential, type ConsignmentVendorCredentialData } from '../harness/credential-store';
import { startTriggerHost, type StartTriggerHostOptions, type TriggerHost } from '../harness/trigger';
import { VendorPortal } from '../harness/trigger/vendor-client';
import type { RunningSandbox } from '../sandbox';
import { useSandbox } from './nodeRun.helpers';

/** A webhook URL of the vendor's own (not an n8n one), for tests where the vendor had one before the trigger. */
export const VENDOR_OWN_URL = 'https://hooks.vendor.example/consignment';

export interface HostOptions extends Omit<Partial<StartTriggerHostOptions>, 'credentials'> {
	/** Changes to the sandbox credential the host's node uses. */
	credential?: Partial<ConsignmentVendorCredentialData>;
}

export interface TriggerHosts {
	sandbox: () => RunningSandbox;
	startHost(options?: HostOptions): Promise<TriggerHost>;
	/** A started host whose workflow n8n has activated. */
	activeHost(options?: HostOptions): Promise<TriggerHost>;
	/** Waits until every host of the test has finished handling what it received. */
	idle(): Promise<void>;
	/** The vendor's webhook settings as the sandbox holds them (read without an API request). */
	vendorState(): Promise<{ url: string | null; enabled: boolean }>;
	/** Someone else (the vendor portal) changing the vendor's webhook settings through the API. */
	portal: VendorPortal;
}

export function useTriggerHosts(): TriggerHosts {
	const sandbox = useSandbox();
	const hosts: TriggerHost[] = [];
	afterEach(async () => {
		await Promise.all(hosts.splice(0).map(async (host) => await host.close()));
	});
	const startHost = async ({ credential, ...options }: HostOptions = {}) => {
		const credentials = new CredentialStore([sandboxCredential(sandbox(), credential)]);
		const host = await startTriggerHost({ credentials, ...options });
		hosts.push(host);
		return host;
	};
	// The sandbox starts in beforeAll: the portal reads its address when it first calls.
	const portal = new VendorPortal({
		get baseUrl() {
			return sandbox().baseUrl;
		},
		get authUrl() {
			return sandbox().authUrl;
		},
		get clientId() {
			return sandbox().clientId;
		},
		get clientSecret() {
			return sandbox().clientSecret;
		},
	});
	return {
		sandbox,
		startHost,
		portal,
		async activeHost(options) {
			const host = await startHost(options);
			await host.activate();
			return host;
		},
		async idle() {
			await Promise.all(hosts.map(async (host) => await host.idle()));
		},
		async vendorState() {
			const { vendor } = await sandbox().admin.state();
			return { url: vendor.webhook_url, enabled: vendor.preferences.webhook_enabled };
		},
	};
}
