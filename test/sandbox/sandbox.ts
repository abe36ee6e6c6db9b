// Everything one running sandbox knows: clock, data store, tokens, faults, request log, webhook deliveries and
// the cursor key. Routes receive it; `reset()` brings it back to the seeded state.
import { randomBytes } from 'node:crypto';

import { TokenStore } from './auth';
import { SandboxClock } from './clock';
import { FaultQueue } from './faults';
import type { PaginationContext } from './pagination';
import { DEFAULT_ITEM_SETTINGS, type ItemSettings } from './item-settings';
import { DEFAULT_PAGING, type PagingSettings } from './paging-settings';
import { RateLimiter } from './rate-limiter';
import { LABELS_PATH } from './routes/labels';
import { seedConsignments, seedDemoData } from './seed';
import { SandboxStore } from './store';
import type { RequestLogEntry } from './types';
import { WebhookDispatcher } from './webhooks';

export class Sandbox {
	readonly clock = new SandboxClock();
	readonly tokens = new TokenStore();
	readonly faults = new FaultQueue();
	readonly rateLimiter = new RateLimiter();
	/** Added to every API request until cleared (admin `latency`), on top of latency faults. */
	latencyMs = 0;
	readonly webhooks: WebhookDispatcher;
	/** Signs cursors so clients cannot build their own. */
	readonly cursorKey = randomBytes(16);
	requestLog: RequestLogEntry[] = [];
	store: SandboxStore;
	/** Page sizes and cursor lifetime (paging-settings.ts); back to DEFAULT_PAGING on reset. */
	paging: PagingSettings = { ...DEFAULT_PAGING };
	/** Listing delay, duplicate SKUs, SKU types (item-settings.ts); back to DEFAULT_ITEM_SETTINGS on reset. */
	items: ItemSettings = { ...DEFAULT_ITEM_SETTINGS };

	/** @param origin where this sandbox is reached (e.g. http://127.0.0.1:4010): the base of its label URLs. */
	constructor(
		readonly seed: boolean,
		readonly origin: string,
	) {
		this.store = this.freshStore();
		this.webhooks = new WebhookDispatcher(this.clock, () => this.store);
	}

	/**
	 * Back to the seeded state: data, request log, clock, faults, rate limit, latency, webhook config, signing
	 * secret and recorded deliveries. Issued tokens stay valid (a real reset would not log clients out; revoke
	 * them with a fault).
	 */
	reset(): void {
		this.clock.reset();
		this.faults.clear();
		this.rateLimiter.clear();
		this.latencyMs = 0;
		this.requestLog = [];
		this.webhooks.reset();
		this.store = this.freshStore();
		this.paging = { ...DEFAULT_PAGING };
		this.items = { ...DEFAULT_ITEM_SETTINGS };
	}

	/** What `paginate` needs for one listing request: its cursors are signed with this sandbox's key and clock. */
	pageContext(
		endpoint: string,
		query: Record<string, string>,
		filters: PaginationContext['filters'] = {},
	): PaginationContext {
		return { endpoint, filters, query, nowMs: this.clock.nowMs(), key: this.cursorKey, paging: this.paging };
	}

	/** Where the shipping label of an order is served (routes/labels.ts): the default `pdf_url` of a purchase. */
	labelUrl(sku: string): string {
		return `${this.origin}${LABELS_PATH}/${encodeURIComponent(sku)}.pdf`;
	}

	private freshStore(): SandboxStore {
		const store = new SandboxStore();
		const now = this.clock.nowMs();
		seedConsignments(store, now);
		if (this.seed) seedDemoData(store, now, (sku) => this.labelUrl(sku));
		return store;
	}
}
