// Typed client for the sandbox's /__sandbox/* admin API. Works against an in-process sandbox or one started with
// `npm run sandbox` in another process: `new SandboxAdmin('http://127.0.0.1:4010')`.
import type { BulkItemsRequest } from './bulk-seed';
import type { ItemSettings } from './item-settings';
import type { PagingSettings } from './paging-settings';
import type {
	ActiveRateLimit,
	CatalogSnapshot,
	EmitEventRequest,
	FaultSpec,
	ItemStatus,
	RateLimitSpec,
	RequestLogEntry,
	SandboxStateSnapshot,
	SeedItemsRequest,
	StoredItem,
	TokenFormat,
	WebhookDelivery,
} from './types';

export class SandboxAdminError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		path: string,
	) {
		super(`Sandbox admin ${path} answered ${status}: ${JSON.stringify(body)}`);
	}
}

export class SandboxAdmin {
	/** @param url the sandbox origin (its baseUrl). */
	constructor(readonly url: string) {}

	/** Back to the seeded state: data, request log, clock, faults, webhook config, signing secret, deliveries. */
	async reset(): Promise<void> {
		await this.call('POST', '/reset');
	}

	/** Every API request since the last reset/clear, oldest first. */
	async requests(): Promise<RequestLogEntry[]> {
		return (await this.call<{ requests: RequestLogEntry[] }>('GET', '/requests')).requests;
	}

	async clearRequests(): Promise<void> {
		await this.call('DELETE', '/requests');
	}

	/** Moves the sandbox clock forward (tokens and cursors expire on it). Returns the new time (ISO). */
	async advanceClock(seconds: number): Promise<string> {
		return (await this.call<{ now: string }>('POST', '/clock', { advanceSeconds: seconds })).now;
	}

	/** Stops the sandbox clock where it is (true; `advanceClock` still moves it), or lets it run on (false). */
	async freezeClock(frozen = true): Promise<string> {
		return (await this.call<{ now: string }>('POST', '/clock', { frozen })).now;
	}

	/** Whether API answers carry a `Date` header (the default) or none at all. */
	async sendDateHeader(sends: boolean): Promise<void> {
		await this.call('POST', '/clock', { sendsDate: sends });
	}

	async now(): Promise<string> {
		return (await this.call<{ now: string }>('GET', '/clock')).now;
	}

	async catalog(): Promise<CatalogSnapshot> {
		return this.call<CatalogSnapshot>('GET', '/catalog');
	}

	async setItemStatus(itemId: number | string, status: ItemStatus): Promise<StoredItem> {
		return (await this.call<{ item: StoredItem }>('POST', `/items/${itemId}/status`, { status })).item;
	}

	/**
	 * Sends an event to the vendor's webhook URL (or `url`) and resolves once it was attempted.
	 * `item_purchased` fills in vendor_sku, sku (accepted by POST /v1/cancellations), timestamp and pdf_url (the
	 * sandbox's own `/labels/<sku>.pdf`, unless data.pdf_url is given).
	 */
	async emitEvent(event: EmitEventRequest): Promise<WebhookDelivery> {
		return (await this.call<{ delivery: WebhookDelivery }>('POST', '/events', event)).delivery;
	}

	async addFault(fault: FaultSpec): Promise<void> {
		await this.call('POST', '/faults', fault);
	}

	async clearFaults(): Promise<void> {
		await this.call('DELETE', '/faults');
	}

	/**
	 * A token bucket per client on every API request, the token exchange included, until cleared or reset: 429
	 * `{message}` when the client's bucket is empty. Returns the limit in force (defaults filled in).
	 */
	async setRateLimit(limit: RateLimitSpec): Promise<ActiveRateLimit> {
		return (await this.call<{ rateLimit: ActiveRateLimit }>('POST', '/rate-limit', limit)).rateLimit;
	}

	async clearRateLimit(): Promise<void> {
		await this.call('DELETE', '/rate-limit');
	}

	async rateLimit(): Promise<ActiveRateLimit | null> {
		return (await this.call<{ rateLimit: ActiveRateLimit | null }>('GET', '/rate-limit')).rateLimit;
	}

	/** Every API request waits `ms` before it is answered, until cleared or reset (0 clears). */
	async setLatency(ms: number): Promise<void> {
		await this.call('POST', '/latency', { ms });
	}

	async clearLatency(): Promise<void> {
		await this.call('DELETE', '/latency');
	}

	/** Creates `count` valid items at once (vendor_sku `<skuPrefix><n>`); returns their item_id and vendor_sku. */
	async seedItems(request: SeedItemsRequest): Promise<Array<{ item_id: number; vendor_sku: string }>> {
		return (await this.call<{ items: Array<{ item_id: number; vendor_sku: string }> }>('POST', '/items/seed', request)).items;
	}

	/** null = deliveries go out unsigned. */
	async setSigningSecret(secret: string | null): Promise<void> {
		await this.call('POST', '/signing-secret', { secret });
	}

	/** Switch the token response to the public docs' {access_token, token_type, expires_in} form, or back. */
	async setTokenFormat(format: TokenFormat): Promise<void> {
		await this.call('POST', '/token-format', { format });
	}

	/**
	 * true: every new token revokes the client's earlier ones (one active token per client), as some services do;
	 * false (default, and after reset): tokens live out their 3600 s.
	 */
	async setOneActiveTokenPerClient(on: boolean): Promise<void> {
		await this.call('POST', '/token-policy', { oneActivePerClient: on });
	}

	/**
	 * true: a non-approved item's PATCH of `quantity` and/or `address_id` alone applies them (a service that reads
	 * "only changed fields apply"); false (default, and after reset): it is a 400 naming the missing creation fields.
	 */
	async setPartialPatchOfNonApproved(on: boolean): Promise<void> {
		await this.call('POST', '/patch-policy', { partialNonApproved: on });
	}

	/** Changes some paging settings (default/maximum page size, clamp or 400 above it, cursor lifetime); returns all. */
	async setPaging(settings: Partial<PagingSettings>): Promise<PagingSettings> {
		return this.call<PagingSettings>('POST', '/paging', settings);
	}

	async paging(): Promise<PagingSettings> {
		return this.call<PagingSettings>('GET', '/paging');
	}

	/** Changes how new items are treated (listing delay, duplicate SKUs, numeric SKUs as numbers); returns all. */
	async setItemSettings(settings: Partial<ItemSettings>): Promise<ItemSettings> {
		return this.call<ItemSettings>('POST', '/item-settings', settings);
	}

	/**
	 * Adds `count` items at once, up to 1,000,000 (lean, shared nested objects; only the first id comes back), SKUs
	 * `${skuPrefix}${firstNumber + i}`: for listings of hundreds of thousands of items.
	 */
	async seedManyItems(request: BulkItemsRequest): Promise<{ first_item_id: number; count: number }> {
		return this.call('POST', '/seed/items', request);
	}

	async state(): Promise<SandboxStateSnapshot> {
		return this.call<SandboxStateSnapshot>('GET', '/state');
	}

	async webhookDeliveries(): Promise<WebhookDelivery[]> {
		return (await this.call<{ deliveries: WebhookDelivery[] }>('GET', '/webhook-deliveries')).deliveries;
	}

	async clearWebhookDeliveries(): Promise<void> {
		await this.call('DELETE', '/webhook-deliveries');
	}

	/** Polls until at least `count` deliveries have been attempted (status or error set). */
	async waitForDeliveries(count: number, timeoutMs = 5000): Promise<WebhookDelivery[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const done = (await this.webhookDeliveries()).filter((d) => d.status !== null || d.error !== null);
			if (done.length >= count) return done;
			if (Date.now() > deadline) throw new Error(`Expected ${count} webhook deliveries, saw ${done.length}`);
			await new Promise((r) => setTimeout(r, 25));
		}
	}

	private async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
		const res = await fetch(`${this.url}/__sandbox${path}`, {
			method,
			headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		const parsed: unknown = text ? JSON.parse(text) : null;
		if (!res.ok) throw new SandboxAdminError(res.status, parsed, path);
		return parsed as T;
	}
}
