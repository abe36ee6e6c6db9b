// The label download has two timers of the same length: its own deadline and the HTTP client's timeout, which is
// set to the time left. Under load either can fire first; the user must read the same "timed out" either way.
// The deadline firing first is covered in test/integration/trigger-label.test.ts; here the client's fires first.
import type { IWebhookFunctions } from 'n8n-workflow';

import { downloadLabel } from '../../nodes/ConsignmentVendorTrigger/label/downloadLabel';
import { connectionError, n8n1ConnectionError } from './fakes';

const SETTINGS = { signed: true, trustedHosts: 'labels.example.com', allowPrivate: false, maxBytes: 1_000_000, timeoutMs: 1000 };
const TIMED_OUT = "The label could not be downloaded: no complete answer within 1 s (timed out; the trigger's Label Download Timeout option)";

function contextWhoseRequestFails(error: unknown): IWebhookFunctions {
	const helpers = {
		httpRequest: async () => await Promise.reject(error),
		prepareBinaryData: async () => await Promise.reject(new Error('no label should be kept')),
	};
	return { helpers } as unknown as IWebhookFunctions;
}

const axiosTimeout = (code: string) => Object.assign(new Error('timeout of 1000ms exceeded'), { isAxiosError: true, code });

it.each([
	['axios, ECONNABORTED', axiosTimeout('ECONNABORTED')],
	['axios, ETIMEDOUT', axiosTimeout('ETIMEDOUT')],
	['n8n 2.x wrapping', connectionError('ECONNABORTED', 'timeout of 1000ms exceeded')],
	['n8n 1.x wrapping', n8n1ConnectionError('ECONNABORTED', 'timeout of 1000ms exceeded')],
])('the HTTP client timing out before the deadline (%s) reads as the deadline does', async (_shape, error) => {
	const result = await downloadLabel(contextWhoseRequestFails(error), 'https://labels.example.com/TRR-1.pdf', 'label.pdf', SETTINGS);
	expect(result).toEqual({ error: TIMED_OUT });
});

it('a failure that is no timeout keeps its own reason', async () => {
	const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { isAxiosError: true, code: 'ECONNREFUSED' });
	const result = await downloadLabel(contextWhoseRequestFails(refused), 'https://labels.example.com/TRR-1.pdf', 'label.pdf', SETTINGS);
	expect(result).toEqual({ error: 'The label could not be downloaded: ECONNREFUSED' });
});
