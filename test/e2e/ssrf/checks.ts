import type { RequestLogEntry } from '../../sandbox/types';
import { apiRequests, expectCount, expectEqual, expectSuccess, isTokenRequest, outputOf } from '../checks/expect';
import { binaryBytes } from '../checks/executions';
import { purchaseExecution, triggerCheck, withActiveTrigger } from '../checks/trigger-session';
import { fail, type Check } from '../checks/types';
import { workflowCheck } from '../checks/workflow-check';
import type { ExecuteOutcome } from '../lib/n8n-cli';
import type { StoredCredential } from '../lib/templates';
import type { ApiTarget } from '../target';

/**
 * n8n's SSRF protection on, the way an admin whose vendor service lives on a private address turns it on: the
 * service's host name allowed (N8N_SSRF_ALLOWED_HOSTNAMES), nothing else. The sandbox is that service, reached as
 * `localhost`; the same sandbox by its address (127.0.0.1, a blocked loopback address nobody allowed) stands for a
 * host the admin did not allow, so every refusal seen here is n8n's and never an unreachable server.
 */
export const ALLOWED_HOST = 'localhost';
const ADDRESS = '127.0.0.1';

export const SSRF_ENV: NodeJS.ProcessEnv = {
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	N8N_SSRF_ALLOWED_HOSTNAMES: ALLOWED_HOST,
	// Regular mode's own default in 2.x, and what 3.0 keeps once the in-memory mode is gone.
	N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
};

const byName = (url: string) => url.replace(`//${ADDRESS}:`, `//${ALLOWED_HOST}:`);
const byAddress = (url: string) => url.replace(`//${ALLOWED_HOST}:`, `//${ADDRESS}:`);

/** The sandbox by its allowed name: the credential every suite workflow uses in this run. */
export function allowedTarget(target: ApiTarget): ApiTarget {
	return { ...target, baseUrl: byName(target.baseUrl), authUrl: byName(target.authUrl) };
}

/** Credentials with one of the two hosts by address: the API host, or the token host, not allowed. */
export function refusedHostCredentials(target: ApiTarget): StoredCredential[] {
	const data = { clientId: target.clientId, clientSecret: target.clientSecret, webhookSigningSecret: '' };
	return [
		{
			id: 'e2eSsrfApiByIp',
			name: 'Consignment Vendor (API by address)',
			type: 'consignmentVendorApi',
			data: { ...data, baseUrl: byAddress(target.baseUrl), authUrl: byName(target.authUrl) },
		},
		{
			id: 'e2eSsrfTokenByIp',
			name: 'Consignment Vendor (token host by address)',
			type: 'consignmentVendorApi',
			data: { ...data, baseUrl: byName(target.baseUrl), authUrl: byAddress(target.authUrl) },
		},
	];
}

/**
 * The refusal must say it was n8n's SSRF protection, and the setting that lets the address through (n8n matches an
 * address written in a URL against N8N_SSRF_ALLOWED_IP_RANGES only, never against host names).
 */
function expectClearRefusal(text: string, address: string, what: string): void {
	const missing = [
		["n8n's SSRF protection refused", 'that n8n\'s SSRF protection refused it'],
		[`N8N_SSRF_ALLOWED_IP_RANGES=${address}/32`, `the setting that allows ${address}`],
	].filter(([says]) => !text.includes(says));
	if (missing.length) fail(`${what} does not say ${missing.map(([, says]) => says).join(', ')}: ${text}`);
}

function errorText(outcome: ExecuteOutcome): string {
	return `${outcome.error?.message ?? ''} ${outcome.error?.description ?? ''}`.trim();
}

const sentTo = (log: RequestLogEntry[]) => log.map((r) => `${r.method} ${r.path} ${r.status}`);

/** A read whose credential points one host at the address: it fails with a clear refusal and `reached` stays empty. */
function refusedRead(name: string, workflow: string, reached: (log: RequestLogEntry[]) => RequestLogEntry[]): Check {
	return workflowCheck({
		name,
		workflow,
		verify({ outcome, requests }) {
			if (outcome.ok) fail('the run succeeded although one of its hosts is blocked');
			expectClearRefusal(errorText(outcome), ADDRESS, 'the error');
			expectEqual(sentTo(reached(requests)), [], 'requests that reached the service');
			return errorText(outcome).slice(0, 240);
		},
	});
}

const LABEL_WORKFLOW = 'trigger-label-download';
const LABEL_WEBHOOK_ID = '0e2e0000-0000-4000-8000-000000000004';
const labelRequests = (log: RequestLogEntry[]) => log.filter((r) => r.path.startsWith('/labels/')).map((r) => `${r.method} ${r.path} ${r.status}`);

export const SSRF_CHECKS: Check[] = [
	workflowCheck({
		name: 'ssrf: the allowed service host: token exchange and API read go through',
		workflow: 'vendor-get',
		verify({ outcome, requests }) {
			expectSuccess(outcome, 'vendor-get');
			expectCount(requests, isTokenRequest, 1, 'token exchanges');
			expectEqual(sentTo(apiRequests(requests)), ['GET /v1/vendor 200'], 'API requests');
			return `vendor ${String(outputOf(outcome, 'Get vendor')[0]?.webhook_url ?? '(no webhook_url)')} read through ${ALLOWED_HOST}`;
		},
	}),
	refusedRead(
		'ssrf: API host not allowed: refused before it is sent, the error names the host and the setting',
		'ssrf-vendor-get-api-refused',
		// The token host is allowed: its exchange may go through, nothing may reach the API.
		(requests) => apiRequests(requests),
	),
	refusedRead(
		'ssrf: token host not allowed: refused, nothing reaches the service, the error names the host and the setting',
		'ssrf-vendor-get-token-refused',
		(requests) => requests,
	),
	workflowCheck({
		name: 'ssrf: item Create to a host not allowed (Continue On Fail): the item says it was not sent, not "outcome unknown"',
		workflow: 'ssrf-item-create-api-refused',
		verify({ outcome, requests, state }) {
			expectSuccess(outcome, 'ssrf-item-create-api-refused');
			const [item, ...more] = outputOf(outcome, 'Create items');
			if (!item || more.length) fail(`expected one output item, got ${1 + more.length}`);
			const text = `${String(item.error ?? '')} ${String(item.message ?? '')}`;
			if (item.error === undefined) fail(`the item is no error item: ${JSON.stringify(item).slice(0, 300)}`);
			if (/unknown/i.test(text)) fail(`a request n8n refused before sending is reported as of unknown outcome: ${text}`);
			expectClearRefusal(text, ADDRESS, 'the error item');
			expectEqual(sentTo(apiRequests(requests)), [], 'API requests that reached the service');
			if (state.items.some((i) => i.vendor_sku === 'E2E-SSRF-1')) fail('the item was created');
			return text.slice(0, 240);
		},
	}),
	triggerCheck(LABEL_WORKFLOW, 'ssrf: trigger registered through the allowed host; a label from it is stored in filesystem mode', async (scope) => {
		const { ctx, api, admin } = scope;
		return await withActiveTrigger(ctx, LABEL_WORKFLOW, LABEL_WEBHOOK_ID, async () => {
			await admin.clearRequests();
			const sku = `TRR-SSRF-OK-${Date.now()}`;
			const pdfUrl = `${byName(ctx.target.baseUrl)}/labels/${sku}.pdf`;
			const { execution, item, binary } = await purchaseExecution(scope, { vendor_sku: 'SBX-1006', sku, pdf_url: pdfUrl });
			const label = binary?.label;
			if (!label) fail(`no label: label_error ${JSON.stringify(item.label_error)}`);
			if (!label.id?.startsWith('filesystem')) fail(`the label is not in filesystem storage: ${JSON.stringify(label)}`);
			expectEqual(labelRequests(await admin.requests()), [`GET /labels/${sku}.pdf 200`], 'label downloads');
			const stored = await binaryBytes(api, label);
			const served = Buffer.from(await (await fetch(byAddress(pdfUrl))).arrayBuffer());
			if (!stored.equals(served)) fail(`the stored label (${stored.length} bytes) differs from the served PDF (${served.length} bytes)`);
			return `execution #${execution.id}: ${label.id.split(':')[0]} id, ${stored.length} bytes equal to the served PDF`;
		});
	}),
	triggerCheck(LABEL_WORKFLOW, 'ssrf: a label on a host not allowed: the event still runs, label_error names the host and the setting', async (scope) => {
		const { ctx, admin } = scope;
		return await withActiveTrigger(ctx, LABEL_WORKFLOW, LABEL_WEBHOOK_ID, async () => {
			await admin.clearRequests();
			const seen: string[] = [];
			for (const [host, pdfUrl] of [
				[ADDRESS, `${byAddress(ctx.target.baseUrl)}/labels/TRR-SSRF-LOOPBACK.pdf`],
				['169.254.169.254', 'http://169.254.169.254/latest/meta-data/label.pdf'],
			]) {
				const { execution, item, binary } = await purchaseExecution(scope, { vendor_sku: 'SBX-1006', sku: `TRR-SSRF-NO-${host}-${Date.now()}`, pdf_url: pdfUrl });
				expectEqual(execution.status, 'success', `status of execution #${execution.id}`);
				if (binary && Object.keys(binary).length) fail(`a label from ${host} was stored: ${JSON.stringify(binary)}`);
				expectClearRefusal(String(item.label_error), host, `label_error for ${host}`);
				seen.push(String(item.label_error));
			}
			expectEqual(labelRequests(await admin.requests()), [], 'label downloads that reached the sandbox');
			return seen.join(' | ').slice(0, 400);
		});
	}),
];
