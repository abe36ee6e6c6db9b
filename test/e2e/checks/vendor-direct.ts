import type { ApiTarget } from '../target';
import { fail, pollUntil } from './types';

export interface VendorProfile {
	webhook_url: string | null;
	preferences: { webhook_enabled: boolean; email_enabled?: boolean };
}

/**
 * The vendor profile read and written directly over the contract (own token, no n8n): how the trigger checks
 * set up a "previous" webhook URL and see what n8n's activation did to it, independent of the node under test.
 */
export class VendorDirect {
	private token = '';

	constructor(private readonly target: ApiTarget) {}

	async get(): Promise<VendorProfile> {
		return (await this.call('GET')) as VendorProfile;
	}

	async patch(body: { webhook_url?: string | null; webhook_enabled?: boolean }): Promise<void> {
		await this.call('PATCH', body);
	}

	/** Polls the profile until `done` holds; fails with the last profile seen. */
	async waitFor(done: (p: VendorProfile) => boolean, what: string, timeoutMs = 20_000): Promise<VendorProfile> {
		return await pollUntil(() => this.get(), done, timeoutMs, (last) => `${what}: after ${timeoutMs / 1000} s the vendor has ${JSON.stringify(last)}`, 250);
	}

	private async call(method: string, body?: unknown): Promise<unknown> {
		if (!this.token) await this.exchange();
		let res = await this.send(method, body);
		if (res.status === 401) {
			await this.exchange();
			res = await this.send(method, body);
		}
		const text = await res.text();
		if (!res.ok) fail(`${method} /v1/vendor answered ${res.status}: ${text.slice(0, 200)}`);
		return text ? JSON.parse(text) : {};
	}

	private send(method: string, body?: unknown): Promise<Response> {
		return fetch(`${this.target.baseUrl}/v1/vendor`, {
			method,
			headers: { authorization: `Bearer ${this.token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
			body: body ? JSON.stringify(body) : undefined,
		});
	}

	private async exchange(): Promise<void> {
		const res = await fetch(`${this.target.authUrl}/api/v1/bearer-token`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', accept: 'application/json' },
			body: JSON.stringify({ client_id: this.target.clientId, client_secret: this.target.clientSecret }),
		});
		if (!res.ok) fail(`the token endpoint answered ${res.status}`);
		const json = (await res.json()) as { bearer_token?: string; access_token?: string };
		this.token = json.bearer_token ?? json.access_token ?? '';
	}
}
