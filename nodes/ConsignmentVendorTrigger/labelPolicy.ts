/**
 * Whether a label URL may be fetched. The URL comes from the request body: without a signature anyone who knows
 * the webhook URL could make n8n fetch a URL of their choosing (request forgery into the user's network), so:
 * - fetched only when the request was signed (a Webhook Signing Secret is set; unsigned requests are then refused
 *   before this point) or the label's host is in Trusted Label Hosts; when that list is set it applies to signed
 *   requests too;
 * - https only, and never from a private, loopback or link-local address (the host's addresses are resolved
 *   first), unless the user allows both for a test server or an internal mirror.
 * Every hop of a redirect is judged again.
 */
// Resolving the host before connecting is the only way to see which addresses a name stands for; n8n's request
// helpers resolve it again when they connect, so a name that changes its answer in between (DNS rebinding) is
// not caught here. n8n 2.x's own SSRF protection, when the instance enables it, checks at connect time.
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports
import { lookup } from 'node:dns/promises';

import { isIpLiteral, isPublicAddress } from './privateAddresses';

export interface LabelPolicy {
	/** The credential has a Webhook Signing Secret, so the request carrying the URL was verified. */
	signed: boolean;
	/** Trusted Label Hosts, as the user typed them (comma- or line-separated; `*.example.com` = its subdomains). */
	trustedHosts: string;
	/** Allow HTTP and Private Label Hosts. */
	allowPrivate: boolean;
}

export type ResolveHost = (host: string) => Promise<string[]>;

export const resolveHost: ResolveHost = async (host) =>
	(await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

const bare = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');

/** The list's entries as bare lower-case host names; a pasted URL counts as its host. */
export function parseTrustedHosts(text: string): string[] {
	return text
		.split(/[\s,]+/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '')
		.map((entry) => {
			if (!entry.includes('://')) return bare(entry.replace(/:\d+$/, '').replace(/\/.*$/, ''));
			try {
				return bare(new URL(entry).hostname);
			} catch {
				return bare(entry);
			}
		});
}

export function isTrustedHost(host: string, trusted: string[]): boolean {
	const name = bare(host);
	return trusted.some((entry) =>
		entry.startsWith('*.') ? name.endsWith(entry.slice(1)) && name.length > entry.length - 1 : name === entry,
	);
}

/** Why `url` may not be fetched, or undefined when it may. Never throws. */
export async function labelRefusal(url: URL, policy: LabelPolicy, resolve: ResolveHost = resolveHost): Promise<string | undefined> {
	const host = bare(url.hostname);
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return `pdf_url is not an http(s) URL (${url.protocol}), so it was not fetched`;
	if (url.username !== '' || url.password !== '') return 'pdf_url carries a user name or password, so it was not fetched';
	if (url.protocol !== 'https:' && !policy.allowPrivate) {
		return 'pdf_url is not an https URL, so it was not fetched (turn on Allow HTTP and Private Label Hosts for a test server or an internal mirror)';
	}
	const trusted = parseTrustedHosts(policy.trustedHosts);
	if (trusted.length > 0 && !isTrustedHost(host, trusted)) {
		return `the label host ${host} is not in Trusted Label Hosts, so it was not fetched`;
	}
	if (trusted.length === 0 && !policy.signed) {
		return 'the request was not signed (the credential has no Webhook Signing Secret) and Trusted Label Hosts is empty, so pdf_url was not fetched';
	}
	if (policy.allowPrivate) return undefined;
	let addresses: string[];
	try {
		addresses = isIpLiteral(host) ? [host] : await resolve(host);
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		return `the label host ${host} could not be resolved${typeof code === 'string' ? ` (${code})` : ''}`;
	}
	const blocked = addresses.find((address) => !isPublicAddress(address));
	if (addresses.length === 0 || blocked !== undefined) {
		return `the label host ${host} is a private, loopback or link-local address${blocked && blocked !== host ? ` (${blocked})` : ''}, so it was not fetched (turn on Allow HTTP and Private Label Hosts to allow it)`;
	}
	return undefined;
}
