// Webhook deliveries to the vendor's webhook_url. They never block the API response that caused them: events
// are queued and sent one after another (so receivers see them in order), each attempt recorded for
// GET /__sandbox/webhook-deliveries. No retries. Signed with X-TRR-Signature when a signing secret is set.
import { createHmac } from 'node:crypto';

import type { SandboxClock } from './clock';
import type { SandboxStore } from './store';
import type { WebhookDelivery, WebhookEnvelope } from './types';

const DELIVERY_TIMEOUT_MS = 5000;

/** event_type/topic used by the notification_event envelope; the service notes name only the address one. */
export function notificationEventType(operation: string): string {
	return operation === 'address_creation' ? 'vendor_address_upsert_response' : `vendor_${operation}`;
}

export function buildEnvelope(operation: string, data: Record<string, unknown>, envelope: WebhookEnvelope): unknown {
	switch (envelope) {
		case 'body':
			return { body: { operation, data } };
		case 'bare':
			return { operation, data };
		case 'notification_event': {
			const eventType = notificationEventType(operation);
			return {
				type: 'notification_event',
				data: { event_type: eventType, ...data },
				properties: { operation, data },
				meta: { topic: eventType },
			};
		}
	}
}

export function sign(rawBody: string, secret: string): string {
	return createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');
}

export class WebhookDispatcher {
	deliveries: WebhookDelivery[] = [];
	private queue: Promise<unknown> = Promise.resolve();
	private nextId = 1;
	/** Bumped by reset() so deliveries still in flight from before a reset are not recorded after it. */
	private generation = 0;

	constructor(
		private readonly clock: SandboxClock,
		private readonly store: () => SandboxStore,
	) {}

	/** Queues an event for the vendor's webhook URL, if one is set and webhooks are enabled. */
	notify(operation: string, data: Record<string, unknown>, envelope: WebhookEnvelope = 'body'): void {
		const { webhook_url: url, preferences } = this.store().vendor;
		if (!url || !preferences.webhook_enabled) return;
		void this.deliver(url, operation, data, envelope);
	}

	/** Queues a delivery and resolves once it has been attempted. */
	deliver(url: string, operation: string, data: Record<string, unknown>, envelope: WebhookEnvelope): Promise<WebhookDelivery> {
		const generation = this.generation;
		const rawBody = JSON.stringify(buildEnvelope(operation, data, envelope));
		const headers: Record<string, string> = {
			'content-type': 'application/json',
			'user-agent': 'consignment-vendor-sandbox',
		};
		const secret = this.store().signingSecret;
		if (secret) headers['x-trr-signature'] = sign(rawBody, secret);
		const delivery: WebhookDelivery = {
			id: this.nextId++,
			url,
			operation,
			envelope,
			body: JSON.parse(rawBody),
			rawBody,
			headers,
			status: null,
			error: null,
			at: this.clock.nowIso(),
		};
		const attempt = this.queue.then(async () => {
			if (generation !== this.generation) return delivery;
			this.deliveries.push(delivery);
			try {
				const res = await fetch(url, {
					method: 'POST',
					headers,
					body: rawBody,
					signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
				});
				await res.arrayBuffer();
				delivery.status = res.status;
			} catch (error) {
				delivery.error = (error as Error).message;
			}
			return delivery;
		});
		this.queue = attempt;
		return attempt;
	}

	/** Resolves when every queued delivery has been attempted. */
	async idle(): Promise<void> {
		await this.queue;
	}

	reset(): void {
		this.generation++;
		this.deliveries = [];
	}
}
