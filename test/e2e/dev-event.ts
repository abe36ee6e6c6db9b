/**
 * `npm run dev:event -- <event> [data JSON]` while `npm run dev` runs: makes the dev sandbox send one vendor event to
 * the webhook URL the vendor has on record (n8n's test URL while a Consignment Vendor Trigger listens for a test
 * event, its production URL while its workflow is published), then prints what it sent and what n8n answered.
 *
 *   npm run dev:event -- item_purchased                       # the first approved item is bought; label included
 *   npm run dev:event -- successful_item_upload '{"item_id": 1001}'
 *   npm run dev:event -- invalid_item_upload
 *   npm run dev:event -- address_creation
 *
 * Env: SANDBOX_PORT (default 4010, as `npm run dev`).
 */
import { SandboxAdmin, SandboxAdminError } from '../sandbox/admin-client';
import type { WebhookDelivery } from '../sandbox/types';

export const DEV_EVENTS = ['item_purchased', 'successful_item_upload', 'invalid_item_upload', 'address_creation'];

/** What a person needs to know about one delivery: where it went, what n8n said, and what to do when it refused. */
export function describeDelivery(delivery: WebhookDelivery): string {
	const answer = delivery.status === null ? `no answer (${delivery.error ?? 'connection failed'})` : `HTTP ${delivery.status}`;
	const lines = [
		`sent ${delivery.operation} to ${delivery.url}${delivery.headers['x-trr-signature'] ? ' (signed)' : ' (unsigned)'}`,
		`n8n answered ${answer}`,
		JSON.stringify(delivery.body, null, 2),
	];
	if (delivery.status === 404) lines.push('n8n knows no webhook at that URL: click "Execute step" on the trigger again (a test URL serves one event).');
	if (delivery.status === 401 || delivery.status === 403) lines.push("n8n refused the signature: the credential's Webhook Signing Secret differs from the sandbox's (restart `npm run dev`).");
	return lines.join('\n');
}

async function main(): Promise<void> {
	const [operation, dataText] = process.argv.slice(2);
	if (!operation) {
		console.error(`usage: npm run dev:event -- <event> [data JSON]   events: ${DEV_EVENTS.join(', ')}`);
		process.exit(2);
	}
	const data = dataText ? (JSON.parse(dataText) as Record<string, unknown>) : undefined;
	const admin = new SandboxAdmin(`http://127.0.0.1:${process.env.SANDBOX_PORT ?? 4010}`);
	try {
		console.log(describeDelivery(await admin.emitEvent({ operation, data })));
	} catch (error) {
		if (error instanceof SandboxAdminError && error.status === 409) {
			console.error('The vendor has no webhook URL yet: open a workflow with a Consignment Vendor Trigger, open the trigger and click "Execute step" (n8n 1.x: "Listen for test event"), or publish the workflow; then run this again.');
			process.exit(1);
		}
		throw error;
	}
}

if (require.main === module) {
	main().catch((error: Error) => {
		console.error(`[dev:event] ${error.message} (is \`npm run dev\` running?)`);
		process.exit(1);
	});
}
