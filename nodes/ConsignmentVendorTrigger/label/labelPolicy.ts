/**
 * Whether a label URL may be fetched. The URL comes from the request body: without a signature anyone who knows
 * the webhook URL could make n8n fetch a URL of their choosing (request forgery into the user's network), so:
 * - fetched only when the request was signed (a Webhook Signing Secret is set; unsigned requests are then refused
 *   before this point) or the label's host is in Trusted Label Hosts; when that list is set it applies to signed
 *   requests too;
 * - https only, and never from a private, loopback or link-local address or a local host name, unless the user
 *   allows both for a test server or an internal mirror.
 * Every hop of a redirect is judged again.
 *
 * Host names are judged by name, not resolved: n8n's community-package rules allow no DNS module (the package
 * scanner refuses `dns`), and n8n resolves the name again when it connects anyway. So a public-looking name that
 * points at a private address is not caught here; that is why an unsigned request's label needs Trusted Label
 * Hosts, hosts the user vouches for.
 */
import { isIpLiteral, isPublicAddress } from './privateAddresses';

export interface LabelPolicy {
	/** The credential has a Webhook Signing Secret, so the request carrying the URL was verified. */
	signed: boolean;
	/** Trusted Label Hosts, as the user typed them (comma- or line-separated; `*.example.com` = its subdomains). */
	trustedHosts: string;
	/** Allow HTTP and Private Label Hosts. */
	allowPrivate: boolean;
}

/** Names that only mean something inside a network (RFC 6761/6762/8375 special-use names, and common ones). */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan'];

/** True for `localhost`, a single-label name (`intranet`) or a name under a local-only suffix. */
function isLocalName(host: string): boolean {
	return host === 'localhost' || !host.includes('.') || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

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
export function labelRefusal(url: URL, policy: LabelPolicy): string | undefined {
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
	// The URL parser already wrote any IPv4 form (decimal, hex, short) as dotted decimal.
	const local = isIpLiteral(host) ? !isPublicAddress(host) : isLocalName(host);
	if (local) {
		return `the label host ${host} is a private, loopback or link-local address or a local name, so it was not fetched (turn on Allow HTTP and Private Label Hosts to allow it)`;
	}
	return undefined;
}
