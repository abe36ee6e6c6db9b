// Which label URLs the trigger fetches (nodes/ConsignmentVendorTrigger/labelPolicy.ts, privateAddresses.ts): the
// address ranges a forged pdf_url could reach into, the Trusted Label Hosts list, and the decision order.
import { isTrustedHost, labelRefusal, parseTrustedHosts, type LabelPolicy } from '../../nodes/ConsignmentVendorTrigger/labelPolicy';
import { isPublicAddress } from '../../nodes/ConsignmentVendorTrigger/privateAddresses';

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
	const resolveTo = (...addresses: string[]) => async () => addresses;

	it('fetches a signed request\'s https label from a public address', async () => {
		expect(await labelRefusal(new URL('https://labels.example.com/a.pdf'), signed, resolveTo('93.184.216.34'))).toBeUndefined();
	});

	it('refuses a host name with any private address among its answers (DNS resolved before connecting)', async () => {
		const refusal = await labelRefusal(new URL('https://labels.example.com/a.pdf'), signed, resolveTo('93.184.216.34', '10.0.0.7'));
		expect(refusal).toMatch(/labels\.example\.com is a private, loopback or link-local address \(10\.0\.0\.7\)/);
	});

	it('refuses a host that does not resolve, naming the code', async () => {
		const failing = async () => {
			throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
		};
		expect(await labelRefusal(new URL('https://nowhere.invalid/a.pdf'), signed, failing)).toBe('the label host nowhere.invalid could not be resolved (ENOTFOUND)');
	});

	it('refuses cloud metadata and IPv6 loopback literals without asking DNS', async () => {
		const never = async (): Promise<string[]> => {
			throw new Error('DNS must not be asked for a literal');
		};
		expect(await labelRefusal(new URL('https://169.254.169.254/latest/meta-data'), signed, never)).toMatch(/private/);
		expect(await labelRefusal(new URL('https://[::1]/a.pdf'), signed, never)).toMatch(/label host ::1 is a private/);
	});

	it('refuses user names and passwords in the URL, and other protocols even when private hosts are allowed', async () => {
		const open: LabelPolicy = { signed: true, trustedHosts: '', allowPrivate: true };
		expect(await labelRefusal(new URL('https://user:pw@labels.example.com/a.pdf'), open)).toMatch(/user name or password/);
		expect(await labelRefusal(new URL('file:///etc/passwd'), open)).toMatch(/not an http\(s\) URL/);
	});

	it('with private hosts allowed: http and loopback pass, DNS is not needed', async () => {
		const open: LabelPolicy = { signed: false, trustedHosts: 'localhost', allowPrivate: true };
		expect(await labelRefusal(new URL('http://localhost:4010/labels/a.pdf'), open, resolveTo('127.0.0.1'))).toBeUndefined();
	});
});
