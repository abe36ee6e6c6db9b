// A request n8n's SSRF protection refuses (N8N_SSRF_PROTECTION_ENABLED): what the user reads, for the API, the token
// exchange and a label download. The errors are shaped as n8n 2.41's @n8n/backend-network throws them (a UserError
// named SsrfBlockedIpError / SsrfBlockedHostnameError with `ip` / `hostname`), wrapped in NodeApiError for API calls
// as n8n-core's httpRequestWithAuthentication does.
import type { IWebhookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ConsignmentVendorApi } from '../../credentials/ConsignmentVendorApi.credentials';
import { forgetSharedAccessTokens } from '../../credentials/sharedAccessToken';
import { downloadLabel } from '../../nodes/ConsignmentVendorTrigger/label/downloadLabel';
import { outcomeIsUnknown, toNodeApiError } from '../../nodes/shared/errors';
import { FAKE_NODE } from './fakes';

function blockedIp(ip: string, hostname?: string): Error {
	return Object.assign(new Error('The request was blocked because it resolves to a restricted IP address'), {
		name: 'SsrfBlockedIpError',
		ip,
		hostname,
		description: 'ask your n8n administrator to allowlist the hostname or IP range in the environment configuration.',
	});
}

function blockedHostname(hostname: string): Error {
	return Object.assign(new Error('The request was blocked because the destination hostname is restricted'), { name: 'SsrfBlockedHostnameError', hostname });
}

/** As n8n-core's httpRequestWithAuthentication throws it. */
const wrapped = (error: Error) => new NodeApiError(FAKE_NODE, error as unknown as JsonObject);

describe('a request refused by n8n\'s SSRF protection', () => {
	it('API request to an address: names SSRF, the address and N8N_SSRF_ALLOWED_IP_RANGES, says nothing was sent', () => {
		const error = toNodeApiError(FAKE_NODE, wrapped(blockedIp('10.0.0.5')), { itemIndex: 3, method: 'POST' }) as NodeApiError;
		expect(error.message).toBe("n8n's SSRF protection refused the request to 10.0.0.5 (the service's Base URL) before sending it");
		expect(error.description).toContain('Nothing was sent.');
		expect(error.description).toContain('N8N_SSRF_ALLOWED_IP_RANGES=10.0.0.5/32');
		expect(error.context.itemIndex).toBe(3);
	});

	it('a host name that resolves to a blocked address: names both, and N8N_SSRF_ALLOWED_HOSTNAMES for the name', () => {
		const error = toNodeApiError(FAKE_NODE, wrapped(blockedIp('10.1.2.3', 'vendor-api.corp.example')));
		expect(error.message).toContain('vendor-api.corp.example (10.1.2.3)');
		expect(error.description).toContain('N8N_SSRF_ALLOWED_HOSTNAMES=vendor-api.corp.example');
	});

	it('a host on the blocked host names list, and an IPv6 address', () => {
		expect(toNodeApiError(FAKE_NODE, wrapped(blockedHostname('metadata.internal'))).description).toContain(
			'N8N_SSRF_ALLOWED_HOSTNAMES=metadata.internal',
		);
		expect(toNodeApiError(FAKE_NODE, wrapped(blockedIp('fd00::1'))).description).toContain('N8N_SSRF_ALLOWED_IP_RANGES=fd00::1/128');
	});

	it('a write refused before sending is not of unknown outcome', () => {
		expect(outcomeIsUnknown(wrapped(blockedIp('10.0.0.5')), 'POST')).toBe(false);
	});

	it('the token exchange: the token endpoint, the address and the setting, not "could not reach"', async () => {
		forgetSharedAccessTokens();
		const httpRequest = jest.fn(async () => {
			throw blockedIp('127.0.0.1');
		});
		const credentials = { baseUrl: 'http://127.0.0.1:9', authUrl: 'http://127.0.0.1:9', clientId: 'client-ssrf', clientSecret: 'secret-ssrf', accessToken: '' };
		const failure = await new ConsignmentVendorApi().preAuthentication.call({ helpers: { httpRequest } } as never, credentials).then(
			() => undefined,
			(error: Error & { description?: string }) => error,
		);
		expect(failure?.message).toBe(
			"n8n's SSRF protection refused the request to 127.0.0.1 (the token endpoint http://127.0.0.1:9/api/v1/bearer-token, from the Auth URL) before sending it",
		);
		expect(failure?.description).toContain('N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.1/32');
	});

	it('a label download: label_error names SSRF, the label host and the setting', async () => {
		const context = {
			helpers: {
				httpRequest: async () => {
					throw blockedIp('169.254.169.254');
				},
			},
		} as unknown as IWebhookFunctions;
		const result = await downloadLabel(context, 'http://169.254.169.254/latest/label.pdf', 'label.pdf', {
			signed: true,
			trustedHosts: '',
			allowPrivate: true,
			maxBytes: 1_000_000,
			timeoutMs: 5_000,
		});
		expect(result).toEqual({
			error: expect.stringMatching(
				/^The label could not be downloaded: n8n's SSRF protection refused the request to 169\.254\.169\.254 \(the label host\) before sending it\. Nothing was sent\. .*N8N_SSRF_ALLOWED_IP_RANGES=169\.254\.169\.254\/32/,
			) as unknown,
		});
	});
});
