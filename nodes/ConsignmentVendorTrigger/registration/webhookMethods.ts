/**
 * The vendor has ONE webhook URL: create remembers the setting it replaced, delete puts it back, and neither
 * touches a URL someone else has set since. How n8n calls these (packages/cli, 1.x and 2.x):
 * - activation and every start: checkExists, then create if false; static data saved afterwards. Deactivation:
 *   delete, saved again. Shutdown calls nothing, so a restart finds our URL still registered;
 * - "listen for test event": checkExists/create with the TEST URL and a fresh, never-saved static data object,
 *   then delete with that object when listening stops. A restart forgets it.
 * So the vendor ends on a working URL whatever the order: test listening is refused while production receives
 * (testListening.ts), and a listening URL carries the setting it replaced (listeningUrl.ts), restored by whichever
 * step comes next.
 */
import type { IHookFunctions } from 'n8n-workflow';

import { markListeningUrl, parseListeningUrl } from './listeningUrl';
import {
	readRegistrations,
	writeRegistrations,
	type Registrations,
	type RememberedSetting,
} from './registrationMemory';
import { refuseWhileProductionReceives } from './testListening';
import {
	getVendorWebhookConfig,
	patchVendorWebhookConfig,
	type VendorWebhookConfig,
	type VendorWebhookPatch,
} from './vendorApi';
import { isSameNodesOtherUrl, isTestRegistration, ownWebhookUrl } from './webhookUrls';

const NOTHING: RememberedSetting = { previousUrl: null, previousEnabled: false };

/** Registered = the vendor calls our URL (the marked one while listening) and has webhooks switched on. */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const ownUrl = ownWebhookUrl(this);
	const vendor = await getVendorWebhookConfig(this);
	if (!vendor.enabled) return false;
	return isTestRegistration(this) ? parseListeningUrl(vendor.url)?.url === ownUrl : vendor.url === ownUrl;
}

/**
 * Decides what to remember before our URL replaces the vendor's current setting. A listening session's URL
 * (any node's) stands for the setting that session replaced: it is judged instead, never the test URL itself.
 * - already our URL (a restart, or webhooks were switched off meanwhile): keep what we remembered;
 * - a URL this node registered earlier under another n8n base URL: carry that memory over;
 * - this node's test URL without a marker (set by an older version) while activating production:
 *   restoring it later would point the vendor at a dead URL, so "nothing" is remembered;
 * - anything else is the vendor's own setting: remember it.
 * The result always has an entry for `ownUrl` ("nothing" where nothing is known: delete then switches webhooks
 * off, as it would without one): its presence tells a webhook call that its static data postdates the activation.
 */
function rememberBeforeReplacing(
	context: IHookFunctions,
	ownUrl: string,
	vendor: VendorWebhookConfig,
	registrations: Registrations,
): Registrations {
	const next = { ...registrations };
	const listening = parseListeningUrl(vendor.url);
	const current = listening ? listening.previous.previousUrl : vendor.url;
	const currentEnabled = listening ? listening.previous.previousEnabled : vendor.enabled;
	if (current === ownUrl) return { ...next, [ownUrl]: next[ownUrl] ?? NOTHING };
	if (current !== null && next[current] !== undefined) {
		next[ownUrl] = next[current];
		delete next[current];
		return next;
	}
	if (current !== null && !isTestRegistration(context) && isSameNodesOtherUrl(context, ownUrl, current)) {
		return { ...next, [ownUrl]: NOTHING };
	}
	next[ownUrl] = { previousUrl: current, previousEnabled: currentEnabled };
	return next;
}

export async function create(this: IHookFunctions): Promise<boolean> {
	const ownUrl = ownWebhookUrl(this);
	const staticData = this.getWorkflowStaticData('node');
	const vendor = await getVendorWebhookConfig(this);
	const testing = isTestRegistration(this);
	if (testing) refuseWhileProductionReceives(this, ownUrl, vendor);

	// Remembered before the PATCH: if the PATCH fails n8n calls delete, which finds the vendor's URL
	// unchanged (not ours), leaves it alone and forgets this entry.
	const registrations = rememberBeforeReplacing(this, ownUrl, vendor, readRegistrations(staticData));
	writeRegistrations(staticData, registrations);

	const url = testing ? markListeningUrl(ownUrl, registrations[ownUrl] ?? NOTHING) : ownUrl;
	await patchVendorWebhookConfig(this, { webhook_url: url, webhook_enabled: true });
	return true;
}

function restorePatch(setting: RememberedSetting | undefined): VendorWebhookPatch {
	// No previous URL: switch webhooks off. The URL itself stays, as the contract's webhook_url is a
	// string (no documented way to clear it); a listening URL keeps its marker, so it is still recognised.
	if (!setting?.previousUrl) return { webhook_enabled: false };
	return { webhook_url: setting.previousUrl, webhook_enabled: setting.previousEnabled };
}

/**
 * Never throws (as n8n's own single-URL triggers): a failing call must not keep n8n from deactivating the workflow
 * or stopping test listening. The memory is then kept (in static data, or in the listening URL at the vendor).
 */
export async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	const ownUrl = ownWebhookUrl(this);
	const staticData = this.getWorkflowStaticData('node');
	const registrations = readRegistrations(staticData);

	try {
		const vendor = await getVendorWebhookConfig(this);
		const listening = parseListeningUrl(vendor.url);
		if (listening?.url === ownUrl) {
			await patchVendorWebhookConfig(this, restorePatch(registrations[ownUrl] ?? listening.previous));
		} else if (vendor.url === ownUrl) {
			await patchVendorWebhookConfig(this, restorePatch(registrations[ownUrl]));
		}
	} catch (error) {
		this.logger.warn(
			`Consignment Vendor Trigger: could not give the vendor its previous webhook URL back (${(error as Error).message}). ` +
				'The next activation or test listening of this trigger puts it back.',
		);
		return false;
	}

	delete registrations[ownUrl];
	writeRegistrations(staticData, registrations);
	return true;
}
