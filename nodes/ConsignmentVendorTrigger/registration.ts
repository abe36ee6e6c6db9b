/**
 * The webhook lifecycle n8n drives (`webhookMethods.default`). The vendor has exactly ONE webhook
 * URL, so registering replaces an account-wide setting: create remembers what it replaced, delete puts
 * it back, and neither touches a URL someone else has set since.
 *
 * How n8n calls these (packages/cli, 1.x and 2.x):
 * - activation and every n8n start: checkExists, then create only when checkExists is false; the
 *   workflow's static data is saved afterwards (ActiveWorkflowManager.addWebhooks);
 * - deactivation: delete with the saved static data, saved again afterwards (clearWebhooks);
 *   n8n's shutdown calls nothing, so a restart finds our URL still registered;
 * - "listen for test event": checkExists/create with the TEST URL and a fresh, never-saved static
 *   data object, then delete with that same object when listening stops (TestWebhooks).
 */
import type { IHookFunctions } from 'n8n-workflow';

import { readRegistrations, writeRegistrations, type Registrations } from './registrationMemory';
import { getVendorWebhookConfig, patchVendorWebhookConfig, type VendorWebhookConfig } from './vendorApi';
import { isSameNodesOtherUrl, isTestRegistration, ownWebhookUrl } from './webhookUrls';

/** Registered = the vendor calls our URL and has webhooks switched on. */
export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const ownUrl = ownWebhookUrl(this);
	const vendor = await getVendorWebhookConfig(this);
	return vendor.url === ownUrl && vendor.enabled;
}

/**
 * Decides what to remember before our URL replaces `vendor.url`:
 * - already our URL (a restart, or webhooks were switched off meanwhile): keep what we remembered;
 * - a URL this node registered earlier under another n8n base URL: carry that memory over;
 * - this node's test URL while activating production: a listening session's URL, not the vendor's
 *   own setting; restoring it later would point the vendor at a dead URL, so it is not remembered;
 * - anything else is the vendor's own setting: remember it.
 */
function rememberBeforeReplacing(
	context: IHookFunctions,
	ownUrl: string,
	vendor: VendorWebhookConfig,
	registrations: Registrations,
): Registrations {
	const next = { ...registrations };
	const current = vendor.url;
	if (current === ownUrl) return next;
	if (current !== null && next[current] !== undefined) {
		next[ownUrl] = next[current];
		delete next[current];
		return next;
	}
	if (current !== null && !isTestRegistration(context) && isSameNodesOtherUrl(context, ownUrl, current)) {
		return next;
	}
	next[ownUrl] = { previousUrl: current, previousEnabled: vendor.enabled };
	return next;
}

export async function create(this: IHookFunctions): Promise<boolean> {
	const ownUrl = ownWebhookUrl(this);
	const staticData = this.getWorkflowStaticData('node');
	const vendor = await getVendorWebhookConfig(this);

	// Remembered before the PATCH: if the PATCH fails n8n calls delete, which finds the vendor's URL
	// unchanged (not ours), leaves it alone and forgets this entry.
	writeRegistrations(staticData, rememberBeforeReplacing(this, ownUrl, vendor, readRegistrations(staticData)));

	await patchVendorWebhookConfig(this, { webhook_url: ownUrl, webhook_enabled: true });
	return true;
}

/**
 * Puts back the remembered setting when the vendor still calls our URL, then forgets it.
 * Never throws (as n8n's own single-URL triggers): a failing call must not keep n8n from
 * deactivating the workflow or stopping test listening. The memory is kept on failure, so a
 * later activation/deactivation cycle can still restore it.
 */
export async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	const ownUrl = ownWebhookUrl(this);
	const staticData = this.getWorkflowStaticData('node');
	const registrations = readRegistrations(staticData);
	const remembered = registrations[ownUrl];

	try {
		const vendor = await getVendorWebhookConfig(this);
		if (vendor.url === ownUrl) {
			if (remembered?.previousUrl) {
				await patchVendorWebhookConfig(this, {
					webhook_url: remembered.previousUrl,
					webhook_enabled: remembered.previousEnabled,
				});
			} else {
				// No previous URL: switch webhooks off. The URL itself stays, as the contract's
				// webhook_url is a string (no documented way to clear it).
				await patchVendorWebhookConfig(this, { webhook_enabled: false });
			}
		}
	} catch {
		return false;
	}

	delete registrations[ownUrl];
	writeRegistrations(staticData, registrations);
	return true;
}
