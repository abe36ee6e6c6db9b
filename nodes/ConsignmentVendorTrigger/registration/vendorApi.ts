/** Every request of the trigger goes through `vendorRequest`: the shared transport, with the action node's auth. */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { apiPaths } from '../../shared/apiPaths';
import { toNodeApiError } from '../../shared/errors';
import { apiRequest, type RequestSettings } from '../../shared/transport';

/**
 * A profile read or change is tiny; n8n waits for it while activating, deactivating or stopping test listening,
 * so a service that does not answer must not hold those up.
 */
const VENDOR_REQUEST_TIMEOUT_MS = 15_000;

/** The credential's queue with the trigger's patience: a timeout is not repeated, a 429 is waited out for 30 s. */
const VENDOR_PATIENCE: Partial<RequestSettings> = { timeoutMs: VENDOR_REQUEST_TIMEOUT_MS, maxWaitMs: 2 * VENDOR_REQUEST_TIMEOUT_MS };

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

/** Axios' timeout, however n8n wrapped it. */
function isTimeout(error: unknown): boolean {
	let current: unknown = error;
	for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth++) {
		const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
		if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') return true;
		if (typeof message === 'string' && /timeout of \d+ms exceeded/i.test(message)) return true;
		current = cause;
	}
	return false;
}

async function vendorRequest(
	context: IHookFunctions,
	method: 'GET' | 'PATCH',
	body?: VendorWebhookPatch,
): Promise<unknown> {
	try {
		// The credential's queue: activation waits out a 429 and repeats a 5xx like any other request.
		return (await apiRequest(context, { method, url: apiPaths.vendor, body: body as IDataObject | undefined }, VENDOR_PATIENCE)).body;
	} catch (error) {
		const mapped = toNodeApiError(context.getNode(), error, { subject: { kind: 'vendor' } });
		const action = method === 'GET' ? 'read' : 'change';
		const reason = isTimeout(error)
			? `the service did not answer within ${VENDOR_REQUEST_TIMEOUT_MS / 1000} s (timed out)`
			: mapped.message;
		mapped.message = `Could not ${action} the vendor's webhook settings (${method} /v1/vendor): ${reason}`;
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
