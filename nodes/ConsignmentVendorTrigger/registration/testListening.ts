/**
 * "Listen for test event" may not take the vendor's events away from a production workflow: the vendor has one
 * webhook URL, and while it points at the test URL every production event goes to the editor instead.
 *
 * Whether a production workflow receives the events is read from the vendor's current setting, the one thing
 * every n8n process sees alike: the test listener gets a fresh, empty static data object from n8n (1.x and 2.x),
 * so the production registration's memory is invisible to it, and n8n tells nodes nothing about whether the
 * workflow is active.
 */
import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseListeningUrl } from './listeningUrl';
import type { VendorWebhookConfig } from './vendorApi';
import { receiverOf } from './webhookUrls';

/** The refusal's message: what the user reads in the editor, so it says what to do. */
const REFUSAL = {
	thisWorkflow:
		'Cannot listen for a test event while this workflow is active: its production URL receives the vendor\'s events ' +
		'(one webhook URL per vendor account). Deactivate the workflow to listen, or open a past production execution from its Executions list.',
	anotherWorkflow:
		'Cannot listen for a test event while another active workflow receives this vendor\'s events (one webhook URL per ' +
		'vendor account). Deactivate that workflow to listen here, or open one of its past executions from the Executions list.',
} as const;

/**
 * Throws a message saying what to do when the vendor's events currently go to a production workflow. Another
 * listening session's URL (perhaps left by a restart) is judged by the setting it replaced: taking it over
 * loses no production event, and that setting is carried on.
 */
export function refuseWhileProductionReceives(context: IHookFunctions, ownUrl: string, vendor: VendorWebhookConfig): void {
	const listening = parseListeningUrl(vendor.url);
	const url = listening ? listening.previous.previousUrl : vendor.url;
	const enabled = listening ? listening.previous.previousEnabled : vendor.enabled;
	if (!enabled || url === null) return;
	const receiver = receiverOf(context, ownUrl, url);
	if (receiver === undefined) return;
	throw new NodeOperationError(context.getNode(), REFUSAL[receiver], {
		description:
			`The vendor's webhook URL is ${url}. Listening would point it at the test URL, and production events ` +
			'would go to the editor instead. Deactivating a workflow gives the vendor its previous URL back.' +
			(receiver === 'thisWorkflow'
				? ' If this workflow is already inactive, its last deactivation could not reach the service: activate and deactivate it once more.'
				: ''),
	});
}
