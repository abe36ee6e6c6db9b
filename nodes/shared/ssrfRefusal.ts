/**
 * n8n's own SSRF protection (2.x, N8N_SSRF_PROTECTION_ENABLED; 3.0 blocks more ranges) refuses a request to a
 * blocked address before sending anything. Its error says only "ask your n8n administrator to allowlist the hostname
 * or IP range", and the person running the workflow is rarely that administrator: this names the host and the exact
 * setting to hand over. Recognised by name, not class: the errors live in n8n's backend, out of a package's reach.
 */
import { asJsonObject } from './jsonObject';

export interface SsrfRefusal {
	/** The host of the URL, as written. */
	host: string;
	/** The address it was refused for, when n8n says. */
	ip?: string;
}

const SSRF_ERRORS = new Set(['SsrfBlockedIpError', 'SsrfBlockedHostnameError']);

const isIpAddress = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':');

/** The refusal carried by `error` or any error it wraps (n8n's NodeApiError keeps it as `cause`), if any. */
export function ssrfRefusalOf(error: unknown): SsrfRefusal | undefined {
	const seen = new Set<unknown>();
	let current = asJsonObject(error);
	while (current && !seen.has(current)) {
		seen.add(current);
		if (typeof current.name === 'string' && SSRF_ERRORS.has(current.name)) {
			const ip = typeof current.ip === 'string' && current.ip !== '' ? current.ip : undefined;
			const hostname = typeof current.hostname === 'string' && current.hostname !== '' ? current.hostname : undefined;
			const host = hostname ?? ip;
			return host === undefined ? undefined : { host, ip };
		}
		current = asJsonObject(current.cause);
	}
	return undefined;
}

/**
 * "n8n's SSRF protection refused the request to {host} ({what}) before sending it", and the setting that lets it
 * through: a host name goes into N8N_SSRF_ALLOWED_HOSTNAMES, an address (n8n never matches an address against host
 * names) into N8N_SSRF_ALLOWED_IP_RANGES.
 */
export function describeSsrfRefusal(refusal: SsrfRefusal, what: string): { message: string; description: string } {
	const byAddress = isIpAddress(refusal.host);
	const target = refusal.ip && refusal.ip !== refusal.host ? `${refusal.host} (${refusal.ip})` : refusal.host;
	const setting = byAddress
		? `N8N_SSRF_ALLOWED_IP_RANGES=${refusal.host}/${refusal.host.includes(':') ? 128 : 32}`
		: `N8N_SSRF_ALLOWED_HOSTNAMES=${refusal.host}`;
	return {
		message: `n8n's SSRF protection refused the request to ${target} (${what}) before sending it`,
		description: `Nothing was sent. If this host is yours, an n8n administrator can allow it with ${setting} (added to the existing list, on every n8n process) and restart n8n.`,
	};
}
