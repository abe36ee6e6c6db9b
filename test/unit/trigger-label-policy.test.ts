// Which label URLs the trigger fetches (nodes/ConsignmentVendorTrigger/label/labelPolicy.ts, privateAddresses.ts): the
// address ranges a forged pdf_url could reach into, the Trusted Label Hosts list, and the decision order.
import { isTrustedHost, labelRefusal, parseTrustedHosts, type LabelPolicy } from '../../nodes/ConsignmentVendorTrigger/label/labelPolicy';
import { isPublicAddress } from '../../nodes/ConsignmentVendorTrigger/label/privateAddresses';

describe('isPublicAddress', () => {
	it.each([
		'127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
		'100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.2.10',
		'::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1',
		'::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', '2002:c0a8:0101::1', '2001:db8::1', '[::1]', 'not-an-address', '1.2.3',
	])('%s is not public', (address) => {
		expect(isPublicAddress(address)).toBe(false);
	});

	it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '2002:0808:0808::1', '2a00:1450:4001:80b::200e'])(
		'%s is public',
		(address) => {
			expect(isPublicAddress(address)).toBe(true);
		},
	);
});

describe('Trusted Label Hosts', () => {
	it('reads comma- or line-separated entries, lower-cased, a pasted URL as its host', () => {
		expect(parseTrustedHosts(' Labels.Example.com,*.cdn.example.com\nhttps://Mirror.example.net:8443/labels/ , 10.0.0.5:9000 ')).toEqual([
			'labels.example.com',
			'*.cdn.example.com',
			'mirror.example.net',
			'10.0.0.5',
		]);
	});

	it('matches a host exactly, and *.domain only its subdomains', () => {
		const list = parseTrustedHosts('labels.example.com, *.cdn.example.com');
		expect(isTrustedHost('LABELS.example.com.', list)).toBe(true);
		expect(isTrustedHost('eu.cdn.example.com', list)).toBe(true);
		expect(isTrustedHost('cdn.example.com', list)).toBe(false);
		expect(isTrustedHost('evilcdn.example.com', list)).toBe(false);
		expect(isTrustedHost('labels.example.com.evil.net', list)).toBe(false);
	});
});

describe('labelRefusal', () => {
	const signed: LabelPolicy = { signed: true, trustedHosts: '', allowPrivate: false };

	it('fetches a signed request\'s https label from a public host name or address', () => {
		expect(labelRefusal(new URL('https://labels.example.com/a.pdf'), signed)).toBeUndefined();
		expect(labelRefusal(new URL('https://93.184.216.34/a.pdf'), signed)).toBeUndefined();
	});

	it('refuses private, loopback and link-local addresses, cloud metadata and IPv6 loopback', () => {
		for (const url of ['https://10.0.0.7/a.pdf', 'https://192.168.1.20/a.pdf', 'https://127.0.0.1/a.pdf', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/a.pdf', 'https://[fd00::1]/a.pdf']) {
			expect(labelRefusal(new URL(url), signed)).toMatch(/is a private, loopback or link-local address or a local name/);
		}
	});

	it('refuses an address written in another IPv4 form (the URL parser normalises it first)', () => {
		expect(labelRefusal(new URL('https://2130706433/a.pdf'), signed)).toMatch(/label host 127\.0\.0\.1 is a private/);
		expect(labelRefusal(new URL('https://0x7f.1/a.pdf'), signed)).toMatch(/label host 127\.0\.0\.1 is a private/);
	});

	it('refuses local host names: localhost, single-label names and local-only suffixes', () => {
		for (const host of ['localhost', 'labels.localhost', 'intranet', 'printer.local', 'metadata.google.internal', 'nas.home.arpa', 'files.lan']) {
			expect(labelRefusal(new URL(`https://${host}/a.pdf`), signed)).toMatch(new RegExp(`label host ${host.replace(/\./g, '\\.')} is a private, loopback or link-local address or a local name`));
		}
	});

	it('refuses user names and passwords in the URL, and other protocols even when private hosts are allowed', () => {
		const open: LabelPolicy = { signed: true, trustedHosts: '', allowPrivate: true };
		expect(labelRefusal(new URL('https://user:pw@labels.example.com/a.pdf'), open)).toMatch(/user name or password/);
		expect(labelRefusal(new URL('file:///etc/passwd'), open)).toMatch(/not an http\(s\) URL/);
	});

	it('with private hosts allowed: http, loopback and local names pass', () => {
		const open: LabelPolicy = { signed: false, trustedHosts: 'localhost, 127.0.0.1', allowPrivate: true };
		expect(labelRefusal(new URL('http://localhost:4010/labels/a.pdf'), open)).toBeUndefined();
		expect(labelRefusal(new URL('http://127.0.0.1:4010/labels/a.pdf'), open)).toBeUndefined();
	});
});
