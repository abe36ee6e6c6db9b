// "Someone else" changing the vendor's webhook settings directly through the API (the vendor portal, another
// tool): a token from the sandbox's token endpoint, then GET/PATCH /v1/vendor. Independent of the node's code.
import type { RunningSandbox } from '../../sandbox';

export interface VendorWebhookSettings {
	webhook_url: string | null;
	webhook_enabled: boolean;
}

export class VendorPortal {
	private token: string | undefined;

	constructor(private readonly sandbox: Pick<RunningSandbox, 'baseUrl' | 'authUrl' | 'clientId' | 'clientSecret'>) {}

	async get(): Promise<VendorWebhookSettings> {
		const body = (await this.call('GET')) as { webhook_url: string | null; preferences: { webhook_enabled: boolean } };
		return { webhook_url: body.webhook_url, webhook_enabled: body.preferences.webhook_enabled };
	}

	async set(settings: Partial<VendorWebhookSettings>): Promise<void> {
		await this.call('PATCH', settings);
	}

	private async call(method: 'GET' | 'PATCH', body?: unknown, retried = false): Promise<unknown> {
		this.token ??= await this.exchange();
		const res = await fetch(`${this.sandbox.baseUrl}/v1/vendor`, {
			method,
			headers: {
				Authorization: `Bearer ${this.token}`,
				Accept: 'application/json',
				...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (res.status === 401 && !retried) {
			this.token = undefined;
			return await this.call(method, body, true);
		}
		if (!res.ok) throw new Error(`${method} /v1/vendor answered ${res.status}: ${await res.text()}`);
		return await res.json();
	}

	private async exchange(): Promise<string> {
		const res = await fetch(`${this.sandbox.authUrl}/api/v1/bearer-token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
			body: JSON.stringify({ client_id: this.sandbox.clientId, client_secret: this.sandbox.clientSecret }),
		});
		if (!res.ok) throw new Error(`token exchange answered ${res.status}`);
		const json = (await res.json()) as { bearer_token?: string; access_token?: string };
		const token = json.bearer_token ?? json.access_token;
		if (!token) throw new Error('token exchange returned no token');
		return token;
	}
}
