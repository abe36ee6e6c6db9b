/**
 * The two vendor-profile calls the trigger needs: read the webhook configuration and change it.
 * Requests go through n8n's `httpRequestWithAuthentication`, so the credential's token exchange,
 * caching and refresh-on-401 apply exactly as for the action node.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

// Actionable messages, rebuilt without the request config (which carries the Authorization header), so no
// token travels with the error.
import { toNodeApiError } from '../shared/errors';
import { apiRequest } from '../shared/transport';

export const CREDENTIAL_TYPE = 'consignmentVendorApi';

/** The vendor's webhook configuration, whichever response form it came in. */
export interface VendorWebhookConfig {
	/** null when the vendor has no webhook URL. */
	url: string | null;
	enabled: boolean;
}

/** The contract's flat PATCH body (the public docs' nested form is never sent). */
export interface VendorWebhookPatch {
	webhook_url?: string;
	webhook_enabled?: boolean;
}

const optionalUrl = z.string().nullable().optional();
const optionalFlag = z.boolean().nullable().optional();

// The contract's GET /v1/vendor answer is {type, webhook_url, preferences: {email_enabled, webhook_enabled}};
// the public docs show {communication_preferences: {webhooks_enabled, webhook_url}}. Both are read.
const vendorResponseSchema = z
	.object({
		webhook_url: optionalUrl,
		preferences: z
			.object({ webhook_enabled: optionalFlag, webhooks_enabled: optionalFlag })
			.passthrough()
			.nullable()
			.optional(),
		communication_preferences: z
			.object({ webhook_url: optionalUrl, webhooks_enabled: optionalFlag, webhook_enabled: optionalFlag })
			.passthrough()
			.nullable()
			.optional(),
	})
	.passthrough();

export function toVendorWebhookConfig(body: unknown): VendorWebhookConfig | undefined {
	const parsed = vendorResponseSchema.safeParse(body);
	if (!parsed.success) return undefined;
	const { webhook_url, preferences, communication_preferences: nested } = parsed.data;
	const url = webhook_url ?? nested?.webhook_url ?? null;
	const enabled =
		preferences?.webhook_enabled ??
		preferences?.webhooks_enabled ??
		nested?.webhooks_enabled ??
		nested?.webhook_enabled ??
		false;
	return { url: url === '' ? null : url, enabled };
}

async function vendorRequest(
	context: IHookFunctions,
	method: 'GET' | 'PATCH',
	body?: VendorWebhookPatch,
): Promise<unknown> {
	try {
		// The credential's queue: activation waits out a 429 and repeats a 5xx like any other request.
		return (await apiRequest(context, { method, url: '/v1/vendor', body: body as IDataObject | undefined })).body;
	} catch (error) {
		const mapped = toNodeApiError(context.getNode(), error, { subject: { kind: 'vendor' } });
		const action = method === 'GET' ? 'read' : 'change';
		mapped.message = `Could not ${action} the vendor's webhook settings (${method} /v1/vendor): ${mapped.message}`;
		throw mapped;
	}
}

export async function getVendorWebhookConfig(context: IHookFunctions): Promise<VendorWebhookConfig> {
	const body = await vendorRequest(context, 'GET');
	const config = toVendorWebhookConfig(body);
	if (config === undefined) {
		throw new NodeOperationError(
			context.getNode(),
			'GET /v1/vendor answered with an unexpected body: no readable webhook_url / webhook_enabled',
		);
	}
	return config;
}

export async function patchVendorWebhookConfig(
	context: IHookFunctions,
	patch: VendorWebhookPatch,
): Promise<void> {
	await vendorRequest(context, 'PATCH', patch);
}
