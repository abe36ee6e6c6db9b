// Shapes shared by the sandbox server and its admin client. Kept free of runtime code so the admin client
// can be used on its own (e2e tests talk to a sandbox running in another process).

/** The five contract statuses plus `draft`, which the service's public docs also show. */
export const ITEM_STATUSES = ['reconciliation', 'pending', 'approved', 'rejected', 'deleted', 'draft'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export type Gender = 'Men' | 'Women';

/** An item as the sandbox stores it (GET /__sandbox/state). API responses are projections of this. */
export interface StoredItem {
	/** Platform variant id: never used in requests, deliberately from a different number range than item_id. */
	id: number;
	item_id: number;
	/** Always the string form; some API responses send numeric-looking ids as numbers. */
	consignment_id: string;
	vendor_sku: string;
	upc: string | null;
	/** Linked address; the model holds it as an integer. */
	address_id: number | null;
	description: string;
	designer: string;
	condition: string;
	taxon: string;
	with_tags: boolean;
	image: { front: string; back: string };
	quantity: number;
	msrp: number;
	/** Cents. */
	price: number;
	gender: Gender[];
	taxon_specific_attributes: Record<string, unknown>;
	designer_specific_attributes: Record<string, unknown>;
	validation_status: ItemStatus;
	created_at: string;
	updated_at: string;
}

export interface StoredAddress {
	address_id: number;
	active: boolean;
	first_name: string;
	last_name: string;
	address1: string;
	address2: string;
	city: string;
	state_abbr: string;
	zipcode: string;
	country_iso: string;
	phone: string;
	email: string | null;
	created_at: string;
	updated_at: string;
}

export interface StoredConsignment {
	/** String form of the id; `numericId` decides whether responses send it as a JSON number. */
	id: string;
	numericId: boolean;
	status: string;
	created_at: string;
	updated_at: string;
	/** Creation order, the stable sort key of the consignments listing. */
	seq: number;
}

export interface StoredVendor {
	type: string;
	webhook_url: string | null;
	preferences: { email_enabled: boolean; webhook_enabled: boolean };
}

/** A purchase of one of the vendor's items; its platform `sku` is what POST /v1/cancellations takes. */
export interface StoredOrder {
	sku: string;
	item_id: number;
	vendor_sku: string;
	status: 'purchased' | 'cancelled';
	purchased_at: string;
	cancelled_at: string | null;
	pdf_url: string;
}

export interface SandboxStateSnapshot {
	now: string;
	vendor: StoredVendor;
	items: StoredItem[];
	addresses: StoredAddress[];
	consignments: StoredConsignment[];
	orders: StoredOrder[];
}

export interface RequestLogEntry {
	method: string;
	path: string;
	query: Record<string, string>;
	/** Parsed JSON body, the raw text when it was not JSON, or null when empty. `client_secret` is redacted. */
	body: unknown;
	/** Whether an Authorization header was present (not whether it was valid). */
	authorized: boolean;
	/** Final HTTP status; 0 when a `drop` fault closed the connection without an answer. */
	status: number;
	/** Sandbox clock time the request arrived. */
	at: string;
	/** Set when an injected fault shaped this request. */
	fault?: FaultKind;
	/** Set when the rate limiter (not a fault) answered 429 (see RateLimitSpec). */
	rateLimited?: true;
	/** From the request's arrival (its body read) to its answer, ms: latency settings and faults included. */
	durationMs?: number;
}

export type FaultKind = 'latency' | 'status' | 'rateLimit' | 'drop' | 'revokeTokens' | 'outage';

export interface FaultSpec {
	kind: FaultKind;
	/** How many matching requests it affects (default 1). */
	count?: number;
	/** How many matching requests it lets through untouched before it starts (default 0): e.g. page 2 of a listing. */
	skip?: number;
	/** Only requests with this HTTP method (case-insensitive). */
	method?: string;
	/** Only requests whose path starts with this. */
	pathPrefix?: string;
	/** Only requests whose path is exactly this (`/v1/items` without `/v1/items/non_approved`). */
	path?: string;
	/** latency: delay in ms before the request is handled normally; outage: how long it lasts (real time). */
	ms?: number;
	/** status: the status code to answer with (default 500). */
	status?: number;
	/** rateLimit: value of the Retry-After header in seconds (default 1). */
	retryAfterSeconds?: number;
	/** outage: how its answers say when it ends (default `http-date`; see RetryAfterForm). */
	retryAfter?: RetryAfterForm;
	/** status: the JSON body to answer with instead of the default `{error: 'Injected fault'}` (e.g. a 207's error list). */
	body?: unknown;
}

/** How a 429 of the rate limiter says when to come back. */
export type RetryAfterForm = 'seconds' | 'http-date' | 'none';

/** A token bucket per client: `POST /__sandbox/rate-limit`. */
export interface RateLimitSpec {
	/** Tokens (requests) added per second. */
	rate: number;
	/** Tokens the bucket holds at most, and starts with (default: rate, at least 1). */
	burst?: number;
	/** `seconds` (default): `Retry-After: <n>`; `http-date`: an IMF-fixdate; `none`: no header. */
	retryAfter?: RetryAfterForm;
	/** Answer this many seconds instead of the time until the client's next token. */
	retryAfterSeconds?: number;
}

/** The limit in force (`GET /__sandbox/rate-limit`): every default filled in. */
export type ActiveRateLimit = Required<Omit<RateLimitSpec, 'retryAfterSeconds'>> & Pick<RateLimitSpec, 'retryAfterSeconds'>;

/** What `seedItems` creates: `POST /__sandbox/items/seed`. */
export interface SeedItemsRequest {
	count: number;
	/** Default `pending`. */
	status?: ItemStatus;
	/** Default `cons_12345`. */
	consignmentId?: string;
	/** vendor_sku = `<prefix><n>`, n from 1; default `SEED-`. */
	skuPrefix?: string;
}

export type WebhookEnvelope = 'body' | 'notification_event' | 'bare';

export interface WebhookDelivery {
	/** Sequence number, in the order deliveries were attempted. */
	id: number;
	url: string;
	operation: string;
	envelope: WebhookEnvelope;
	/** Parsed body as sent. */
	body: unknown;
	/** The exact bytes sent (what X-TRR-Signature signs). */
	rawBody: string;
	/** Request headers sent, lower-case names. */
	headers: Record<string, string>;
	/** Response status, or null while pending or when the connection failed. */
	status: number | null;
	/** Network error, if the delivery failed before a response. */
	error: string | null;
	/** Sandbox clock time of the attempt. */
	at: string;
}

export interface EmitEventRequest {
	operation: string;
	data?: Record<string, unknown>;
	envelope?: WebhookEnvelope;
	/** Deliver here instead of the vendor's webhook_url (and even when webhooks are disabled). */
	url?: string;
}

/**
 * `contract`: {bearer_token, expires_in} (vendor-api.md). `public-docs`: {access_token, token_type, expires_in}, the
 * form the service's public docs show; clients should read either.
 */
export type TokenFormat = 'contract' | 'public-docs';

export interface CatalogSnapshot {
	designers: string[];
	conditions: string[];
	taxonPermalinks: string[];
}
