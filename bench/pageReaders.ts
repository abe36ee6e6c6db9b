/**
 * The floors the client-side benches compare the package with: one listing page read through plain `fetch` (keeps its
 * connection alive) or through n8n's own HTTP client (`OutboundHttp`, the one `helpers.httpRequest` hands every node's
 * request to: new agents for each request, so each page opens a new connection). Nothing is kept or written: this is
 * the floor of any node that reads these pages through n8n's helpers, as a community node must.
 */
import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';

export interface Page {
	products: unknown[];
	page_info: { has_next_page: boolean; end_cursor?: string };
}

export type PageReader = (url: string, token: string) => Promise<Page>;

export const readWithFetch: PageReader = async (url, token) => (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as Page;

export const readWithN8nHttp: PageReader = async (url, token) =>
	(await Container.get(OutboundHttp).requests().request({ method: 'GET', url, headers: { authorization: `Bearer ${token}` }, json: true })) as Page;

/** The process's CPU time since `before` (user + system), ms. */
export function cpuMsSince(before: NodeJS.CpuUsage): number {
	const used = process.cpuUsage(before);
	return (used.user + used.system) / 1000;
}

/** A bearer token from the sandbox's token endpoint, outside the package (the floors have no credential). */
export async function bearerToken(sandbox: { authUrl: string; clientId: string; clientSecret: string }): Promise<string> {
	const exchange = await fetch(`${sandbox.authUrl}/api/v1/bearer-token`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ client_id: sandbox.clientId, client_secret: sandbox.clientSecret }),
	});
	return ((await exchange.json()) as { bearer_token: string }).bearer_token;
}
