import { CREDENTIAL_IDS, WRONG_SECRET_CANARY } from '../lib/templates';
import { describeRequests, expectCount, expectEqual, expectSuccess, isTokenRequest, outputOf } from './expect';
import { fail, sandboxCheck, type Check, type CheckContext } from './types';
import { workflowCheck } from './workflow-check';

/** The token n8n stored in the credential (the hidden `accessToken` field), read back decrypted. */
async function storedToken(ctx: CheckContext): Promise<string> {
	const credential = (await ctx.exportCredentials()).find((c) => c.id === CREDENTIAL_IDS.good);
	if (!credential) fail(`export:credentials has no credential ${CREDENTIAL_IDS.good}`);
	const token = credential.data.accessToken;
	return typeof token === 'string' ? token : '';
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Token fingerprint for messages: tokens themselves are never printed. */
const fingerprint = (token: string) => (token ? `…${token.slice(-4)} (${token.length} chars)` : '(empty)');

export const credentialChecks: Check[] = [
	sandboxCheck('cli', 'credential: first execution exchanges one token and uses it', async (ctx, admin) => {
		await admin.clearRequests();
		const outcome = await ctx.execute('vendor-get');
		expectSuccess(outcome, 'vendor-get');
		const log = await admin.requests();
		expectCount(log, isTokenRequest, 1, 'token exchanges on the first run');
		expectCount(log, (r) => r.method === 'GET' && r.path === '/v1/vendor' && r.authorized && r.status === 200, 1, 'authorized GET /v1/vendor answered 200');
		const [vendor] = outputOf(outcome, 'Get vendor');
		if (!vendor || !('webhook_url' in vendor) || !('preferences' in vendor)) fail(`Get vendor output lacks webhook_url/preferences: ${JSON.stringify(vendor)}`);
		const token = await storedToken(ctx);
		if (!token) fail('n8n stored no access token in the credential after the exchange');
		return `${describeRequests(log)}; stored token ${fingerprint(token)}`;
	}),
	sandboxCheck('cli', 'credential: second execution reuses the stored token (no exchange)', async (ctx, admin) => {
		const before = await storedToken(ctx);
		if (!before) fail('no stored token before the second run (the first-run check must pass first)');
		await admin.clearRequests();
		const outcome = await ctx.execute('vendor-get');
		expectSuccess(outcome, 'vendor-get');
		const log = await admin.requests();
		expectCount(log, isTokenRequest, 0, 'token exchanges on the second run');
		expectCount(log, (r) => r.path === '/v1/vendor' && r.status === 200, 1, 'GET /v1/vendor answered 200');
		const after = await storedToken(ctx);
		if (after !== before) fail(`the stored token changed without an exchange: ${fingerprint(before)} -> ${fingerprint(after)}`);
		return `${describeRequests(log)}; token ${fingerprint(after)} kept`;
	}),
	sandboxCheck('cli', 'credential: token refreshed once after the sandbox clock passes an hour', async (ctx, admin) => {
		const before = await storedToken(ctx);
		await admin.advanceClock(3601);
		await admin.clearRequests();
		const outcome = await ctx.execute('vendor-get');
		expectSuccess(outcome, 'vendor-get');
		const log = await admin.requests();
		expectCount(log, isTokenRequest, 1, 'token exchanges after expiry');
		const lastVendor = log.filter((r) => r.path === '/v1/vendor').pop();
		if (lastVendor?.status !== 200) fail(`the last GET /v1/vendor did not succeed: ${describeRequests(log)}`);
		const after = await storedToken(ctx);
		if (!after || after === before) fail(`the refreshed token was not stored: before ${fingerprint(before)}, after ${fingerprint(after)}`);
		return `${describeRequests(log)}; token ${fingerprint(before)} -> ${fingerprint(after)}`;
	}),
	workflowCheck({
		name: 'credential: after the tokens are revoked, 5 input items share one new token exchange',
		workflow: 'vendor-get-five-items',
		setup: (admin) => admin.addFault({ kind: 'revokeTokens' }),
		verify({ outcome, requests }) {
			expectSuccess(outcome, 'vendor-get-five-items');
			expectEqual(outputOf(outcome, 'Get vendor').length, 5, 'output items');
			expectCount(requests, isTokenRequest, 1, 'token exchanges for 5 items after revocation');
			// 5 items, and, when a stored token was rejected (not when this check runs alone, with no token stored yet),
			// the credential's checks of the new token before it answers the 401s (GET /v1/vendor as well): one, or two
			// when a second item's 401 arrives while the first check is under way (timing decides).
			const answered = requests.filter((r) => r.path === '/v1/vendor' && r.status === 200).length;
			const maxChecks = requests.some((r) => r.status === 401) ? 2 : 0;
			if (answered < 5 || answered > 5 + maxChecks) {
				fail(`GET /v1/vendor answered 200 ${answered} times: expected the 5 items' requests and at most ${maxChecks} checks of the new token`);
			}
			return describeRequests(requests);
		},
	}),
	{
		name: 'credential: wrong client secret fails the node with a clear error, secret never printed',
		phase: 'cli',
		async run(ctx) {
			const outcome = await ctx.execute('vendor-get-wrong-secret');
			if (outcome.ok) fail('the workflow succeeded with a wrong client secret');
			const message = `${outcome.error?.message ?? ''} ${outcome.error?.description ?? ''}`.trim();
			if (!message) fail(`n8n reported no error message; output:\n${outcome.log}`);
			if (JSON.stringify(outcome).includes(WRONG_SECRET_CANARY)) fail('the client secret appears in n8n\'s output or run data');
			// The token exchange's own error: the token URL, the refusal's status, and what to check. Any other error
			// (an API call made without a token, n8n's generic "Authorization failed") is not a clear one.
			const tokenUrl = `${ctx.target.authUrl}/api/v1/bearer-token`;
			const refused = new RegExp(`^The Consignment Vendor token endpoint ${escapeRegExp(tokenUrl)} answered HTTP (400|401|403)\\b`);
			if (!refused.test(outcome.error?.message ?? '')) {
				fail(`the error is not the token endpoint's refusal at ${tokenUrl}: "${message}"`);
			}
			if (!/Check the Client ID and Client Secret in the credential/.test(message)) {
				fail(`the error does not tell the user to check the Client ID and Client Secret: "${message}"`);
			}
			return `error: "${message.slice(0, 160)}"`;
		},
	},
	{
		name: 'n8n start offers both nodes and the credential type from the installed package to the editor',
		phase: 'server',
		async run(ctx) {
			const api = ctx.server!.api;
			const nodes = await api.typeNames('nodes');
			const credentials = await api.typeNames('credentials');
			const wanted = ['n8n-nodes-consignment-vendor.consignmentVendor', 'n8n-nodes-consignment-vendor.consignmentVendorTrigger'];
			const missing = wanted.filter((n) => !nodes.includes(n));
			if (missing.length) fail(`node types missing: ${missing.join(', ')}; loaded ones of this package: ${nodes.filter((n) => n.includes('consignment')).join(', ') || 'none'}`);
			if (!credentials.includes('consignmentVendorApi')) fail('credential type consignmentVendorApi is not loaded');
			return `${wanted.join(', ')}, consignmentVendorApi`;
		},
	},
	{
		name: "credential: n8n's credential test accepts the credential and rejects a wrong secret",
		phase: 'server',
		async run(ctx) {
			const api = ctx.server!.api;
			const credentials = await ctx.exportCredentials();
			const good = credentials.find((c) => c.id === CREDENTIAL_IDS.good);
			const bad = credentials.find((c) => c.id === CREDENTIAL_IDS.wrongSecret);
			if (!good || !bad) fail('the imported credentials are missing from export:credentials');
			const ok = await api.testCredential(good);
			if (ok.status !== 'OK') fail(`the test of the good credential answered ${ok.status}: ${ok.message}`);
			const rejected = await api.testCredential(bad);
			if (rejected.status === 'OK') fail('the test of the credential with a wrong client secret answered OK');
			if (rejected.message.includes(WRONG_SECRET_CANARY)) fail('the test message contains the client secret');
			return `good: ${ok.status} "${ok.message}"; wrong secret: ${rejected.status} "${rejected.message.slice(0, 120)}"`;
		},
	},
];
