// Shared by the contract tests: one in-process sandbox per test file (port 0), reset before each test, and a
// tiny HTTP client that talks to it the way an API client would.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { validAddress as sharedValidAddress } from '../integration/address-input';
import { validItemBody } from '../integration/item-input';
import { startSandbox, type RunningSandbox } from '../sandbox';
import { NON_VENDOR_CLIENT } from '../sandbox/auth';

// Response bodies are asserted field by field with expect(); a loose type keeps the tests readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResult<T = Json> {
	status: number;
	body: T;
	headers: Headers;
}

export interface RequestOptions {
	body?: unknown;
	/** Raw body text, sent as is (with `contentType`). */
	rawBody?: string;
	contentType?: string;
	query?: Record<string, string | number | undefined>;
	/** Bearer token; `null` sends no Authorization header. Defaults to a vendor token. */
	token?: string | null;
}

export class ContractClient {
	private token: string | undefined;

	constructor(readonly sb: RunningSandbox) {}

	/** A fresh token for the given client (default: the vendor client). */
	async newToken(clientId = this.sb.clientId, clientSecret = this.sb.clientSecret): Promise<string> {
		const res = await this.post(`${this.sb.authUrl}/api/v1/bearer-token`, { client_id: clientId, client_secret: clientSecret });
		if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body.bearer_token as string;
	}

	async nonVendorToken(): Promise<string> {
		return this.newToken(NON_VENDOR_CLIENT.clientId, NON_VENDOR_CLIENT.clientSecret);
	}

	/** Forgets the cached vendor token (e.g. after a revokeTokens fault). */
	forgetToken(): void {
		this.token = undefined;
	}

	async request<T = Json>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
		let token = options.token;
		if (token === undefined) token = this.token ??= await this.newToken();
		const url = new URL(path, this.sb.baseUrl);
		for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
		const headers: Record<string, string> = { Accept: 'application/json' };
		if (token !== null) headers.Authorization = `Bearer ${token}`;
		let body: string | undefined;
		if (options.rawBody !== undefined) body = options.rawBody;
		else if (options.body !== undefined) body = JSON.stringify(options.body);
		if (body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
		const res = await fetch(url, { method, headers, body });
		const text = await res.text();
		return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
	}

	get = <T = Json>(path: string, query?: RequestOptions['query'], token?: string | null) =>
		this.request<T>('GET', path, { query, token });

	async post<T = Json>(url: string, body: unknown): Promise<ApiResult<T>> {
		const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
		const text = await res.text();
		return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
	}
}

/** Starts a sandbox for the test file and resets it before every test. */
export function useSandbox(): { sb: () => RunningSandbox; api: () => ContractClient } {
	let sb: RunningSandbox;
	let api: ContractClient;
	beforeAll(async () => {
		sb = await startSandbox({ port: 0 });
		api = new ContractClient(sb);
	});
	beforeEach(async () => {
		await sb.admin.reset();
		// Tokens survive a reset, but a test may have revoked them: start each test with a fresh one.
		api.forgetToken();
	});
	afterAll(async () => {
		await sb?.close();
	});
	return { sb: () => sb, api: () => api };
}

/** A creation input that passes every rule; override fields to break one. */
export function validItem(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	// The contract tests read these prices back in the service's dollar form ('1999.99').
	return { ...validItemBody(`NEW-${Math.random().toString(36).slice(2, 10)}`, { msrp: 350000, price: 199999 }), ...overrides };
}

export function validAddress(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return { ...sharedValidAddress(), ...overrides };
}

export interface ReceivedWebhook {
	headers: IncomingMessage['headers'];
	rawBody: string;
	body: Json;
}

/** A local webhook receiver that records what it gets. `delayMs` holds each answer back. */
export async function startReceiver(options: { status?: number; delayMs?: number } = {}): Promise<{
	url: string;
	received: ReceivedWebhook[];
	close(): Promise<void>;
}> {
	const received: ReceivedWebhook[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const rawBody = Buffer.concat(chunks).toString('utf8');
			received.push({ headers: req.headers, rawBody, body: JSON.parse(rawBody) });
			setTimeout(() => {
				res.writeHead(options.status ?? 200);
				res.end();
			}, options.delayMs ?? 0);
		});
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		close: () => {
			server.closeAllConnections();
			return new Promise((r) => server.close(() => r()));
		},
	};
}
