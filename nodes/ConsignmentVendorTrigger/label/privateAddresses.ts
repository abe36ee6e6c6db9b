/**
 * Which IP addresses a label may not be fetched from unless the user allows it: anything that is not a public
 * internet address (private networks, loopback, link-local incl. cloud metadata at 169.254.169.254, carrier NAT,
 * multicast, reserved and documentation ranges), also when written in an IPv6 form that embeds an IPv4 address.
 * Written without node:net, which community nodes may not import.
 */

/** [network address, prefix length] */
const BLOCKED_V4: ReadonlyArray<[string, number]> = [
	['0.0.0.0', 8],
	['10.0.0.0', 8],
	['100.64.0.0', 10],
	['127.0.0.0', 8],
	['169.254.0.0', 16],
	['172.16.0.0', 12],
	['192.0.0.0', 24],
	['192.0.2.0', 24],
	['192.88.99.0', 24],
	['192.168.0.0', 16],
	['198.18.0.0', 15],
	['198.51.100.0', 24],
	['203.0.113.0', 24],
	['224.0.0.0', 4],
	['240.0.0.0', 4],
];

function parseIpv4(text: string): number | undefined {
	const parts = text.split('.');
	if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
	return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

function inV4Range(address: number, [base, bits]: [string, number]): boolean {
	const size = 2 ** (32 - bits);
	const start = parseIpv4(base) as number;
	return address >= start && address < start + size;
}

function isPublicV4(address: number): boolean {
	return !BLOCKED_V4.some((range) => inV4Range(address, range));
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function parseIpv6(text: string): number[] | undefined {
	let rest = text.replace(/^\[|\]$/g, '').split('%')[0].toLowerCase();
	const groups: number[] = [];
	const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(rest);
	let tailV4: number[] = [];
	if (dotted) {
		const v4 = parseIpv4(dotted[1]);
		if (v4 === undefined) return undefined;
		tailV4 = [Math.floor(v4 / 65536), v4 % 65536];
		rest = rest.slice(0, -dotted[1].length);
		if (rest.endsWith(':') && !rest.endsWith('::')) rest = rest.slice(0, -1);
	}
	const halves = rest.split('::');
	if (halves.length > 2) return undefined;
	const toGroups = (part: string) => (part === '' ? [] : part.split(':'));
	const head = toGroups(halves[0]);
	const tail = halves.length === 2 ? toGroups(halves[1]) : [];
	if (![...head, ...tail].every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
	const explicit = head.length + tail.length + tailV4.length;
	if (halves.length === 1 ? explicit !== 8 : explicit > 7) return undefined;
	groups.push(...head.map((g) => parseInt(g, 16)));
	groups.push(...new Array<number>(8 - explicit).fill(0));
	groups.push(...tail.map((g) => parseInt(g, 16)), ...tailV4);
	return groups;
}

const v4From = (high: number, low: number) => high * 65536 + low;

function isPublicV6(g: number[]): boolean {
	const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
	// ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): judged as the IPv4 address.
	if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0) && !(g[5] === 0 && g[6] === 0)) {
		return isPublicV4(v4From(g[6], g[7]));
	}
	// 64:ff9b::/96, NAT64 of an IPv4 address.
	if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return isPublicV4(v4From(g[6], g[7]));
	// 2002::/16, 6to4: the IPv4 address is in groups 1 and 2.
	if (g[0] === 0x2002) return isPublicV4(v4From(g[1], g[2]));
	// 2001:db8::/32 is for documentation.
	if (g[0] === 0x2001 && g[1] === 0x0db8) return false;
	// Only global unicast (2000::/3) is public; ::, ::1, fc00::/7, fe80::/10, ff00::/8 … are not.
	return (g[0] & 0xe000) === 0x2000;
}

/** True for a public internet address; false for any other address and for text that is not an address. */
export function isPublicAddress(address: string): boolean {
	const v4 = parseIpv4(address);
	if (v4 !== undefined) return isPublicV4(v4);
	const v6 = parseIpv6(address);
	return v6 !== undefined && isPublicV6(v6);
}

/** True when `host` is written as an IP address (IPv4, or IPv6 with or without brackets). */
export function isIpLiteral(host: string): boolean {
	return parseIpv4(host) !== undefined || parseIpv6(host) !== undefined;
}
