// The listening session's URL (nodes/ConsignmentVendorTrigger/registration/listeningUrl.ts): n8n's test URL carrying the
// vendor setting it replaced, read back by whoever finds it at the vendor.
import { markListeningUrl, parseListeningUrl } from '../../nodes/ConsignmentVendorTrigger/registration/listeningUrl';

const TEST_URL = 'https://n8n.example.com/webhook-test/0b9a3c3e-1d2f-4e5a-9b8c-7d6e5f4a3b2c/webhook';

it('round-trips a previous URL with its own query and characters that need encoding', () => {
	const previous = { previousUrl: 'https://hooks.example.com/in?x=1&y=a b#frag', previousEnabled: false };
	const marked = markListeningUrl(TEST_URL, previous);

	expect(marked.startsWith(`${TEST_URL}?`)).toBe(true);
	expect(new URL(marked).pathname).toBe(new URL(TEST_URL).pathname);
	expect(parseListeningUrl(marked)).toEqual({ url: TEST_URL, previous });
});

it('round-trips "no previous URL"', () => {
	const marked = markListeningUrl(TEST_URL, { previousUrl: null, previousEnabled: false });
	expect(parseListeningUrl(marked)).toEqual({ url: TEST_URL, previous: { previousUrl: null, previousEnabled: false } });
});

it('is undefined for URLs without the marker (production URLs, the vendor\'s own)', () => {
	expect(parseListeningUrl(null)).toBeUndefined();
	expect(parseListeningUrl(TEST_URL)).toBeUndefined();
	expect(parseListeningUrl('https://hooks.example.com/in?cvt_restore_url=x')).toBeUndefined();
	expect(parseListeningUrl('https://hooks.example.com/in?a=1')).toBeUndefined();
});
