// Reading GET /v1/vendor in both the contract's flat form and the public docs' nested form
// (nodes/ConsignmentVendorTrigger/registration/vendorApi.ts toVendorWebhookConfig).
import { toVendorWebhookConfig } from '../../nodes/ConsignmentVendorTrigger/registration/vendorApi';
import { httpUrl } from '../../nodes/shared/httpUrl';

describe('toVendorWebhookConfig', () => {
	it('reads the contract form', () => {
		expect(
			toVendorWebhookConfig({
				type: 'consignor',
				webhook_url: 'https://a.example/h',
				preferences: { email_enabled: true, webhook_enabled: true },
			}),
		).toEqual({ url: 'https://a.example/h', enabled: true });
	});

	it('reads the nested form of the public docs', () => {
		expect(
			toVendorWebhookConfig({ communication_preferences: { webhook_url: 'https://b.example/h', webhooks_enabled: false } }),
		).toEqual({ url: 'https://b.example/h', enabled: false });
	});

	it('treats a missing, null or empty URL as no URL, and a missing flag as disabled', () => {
		expect(toVendorWebhookConfig({ type: 'x' })).toEqual({ url: null, enabled: false });
		expect(toVendorWebhookConfig({ webhook_url: null, preferences: { webhook_enabled: true } })).toEqual({ url: null, enabled: true });
		expect(toVendorWebhookConfig({ webhook_url: '' })).toEqual({ url: null, enabled: false });
	});

	it('refuses bodies it cannot read', () => {
		expect(toVendorWebhookConfig('not json')).toBeUndefined();
		expect(toVendorWebhookConfig({ webhook_url: 42 })).toBeUndefined();
	});
});

describe('httpUrl (label download guard)', () => {
	it('accepts absolute http and https URLs only', () => {
		expect(httpUrl('https://labels.example.com/1.pdf')?.href).toBe('https://labels.example.com/1.pdf');
		expect(httpUrl('http://labels.example.com/1.pdf')).toBeDefined();
		for (const bad of ['/labels/1.pdf', 'labels/1.pdf', 'file:///etc/passwd', 'ftp://x/1.pdf', 'javascript:alert(1)', '', 12, null]) {
			expect(httpUrl(bad)).toBeUndefined();
		}
	});
});
