// Events the admin API emits on demand (POST /__sandbox/events). `item_purchased` is special: it records an order
// so that its platform `sku` is accepted by POST /v1/cancellations and its label is served at `pdf_url`.
import { fail, isPlainObject } from './http';
import type { Sandbox } from './sandbox';
import type { EmitEventRequest, StoredItem, WebhookDelivery, WebhookEnvelope } from './types';

const ENVELOPES: WebhookEnvelope[] = ['body', 'notification_event', 'bare'];

export function parseEmitRequest(body: Record<string, unknown>): EmitEventRequest {
	const { operation, data, envelope, url } = body;
	if (typeof operation !== 'string' || operation === '') throw fail(400, 'operation is required');
	if (data !== undefined && !isPlainObject(data)) throw fail(400, 'data must be an object');
	if (envelope !== undefined && !ENVELOPES.includes(envelope as WebhookEnvelope)) {
		throw fail(400, `envelope must be one of ${ENVELOPES.join(', ')}`);
	}
	if (url !== undefined && typeof url !== 'string') throw fail(400, 'url must be a string');
	return { operation, data, envelope: envelope as WebhookEnvelope | undefined, url };
}

export async function emitEvent(sandbox: Sandbox, request: EmitEventRequest): Promise<WebhookDelivery> {
	const vendor = sandbox.store.vendor;
	const url = request.url ?? (vendor.preferences.webhook_enabled ? vendor.webhook_url : null);
	if (!url) throw fail(409, 'The vendor has no enabled webhook_url (PATCH /v1/vendor first, or pass url)');
	const data: Record<string, unknown> = { timestamp: sandbox.clock.nowIso(), ...request.data };
	if (request.operation === 'item_purchased') Object.assign(data, recordPurchase(sandbox, data));
	return sandbox.webhooks.deliver(url, request.operation, data, request.envelope ?? 'body');
}

/** Picks the purchased item (by data.item_id, data.vendor_sku, or the first approved item) and records an order. */
function recordPurchase(sandbox: Sandbox, data: Record<string, unknown>): Record<string, unknown> {
	const store = sandbox.store;
	let item: StoredItem | undefined;
	if (data.item_id !== undefined) item = store.findItem(Number(data.item_id));
	else if (typeof data.vendor_sku === 'string') item = store.findItemByVendorSku(data.vendor_sku);
	else item = store.items.find((i) => i.validation_status === 'approved');
	if (!item) throw fail(404, 'No item matches data.item_id / data.vendor_sku for item_purchased');
	const sku = typeof data.sku === 'string' && data.sku ? data.sku : store.allocateOrderSku();
	// The sandbox serves this label itself (GET /labels/<sku>.pdf), so a client can really download it.
	const pdfUrl = typeof data.pdf_url === 'string' ? data.pdf_url : sandbox.labelUrl(sku);
	if (!store.findOrder(sku)) {
		store.orders.push({
			sku,
			item_id: item.item_id,
			vendor_sku: item.vendor_sku,
			status: 'purchased',
			purchased_at: String(data.timestamp),
			cancelled_at: null,
			pdf_url: pdfUrl,
		});
	}
	return { vendor_sku: item.vendor_sku, sku, pdf_url: pdfUrl };
}
