// POST {auth_url}/api/v1/bearer-token. Errors use the `{message}` body of the contract's 401.
import type { AuthContext } from '../auth';
import { TOKEN_LIFETIME_SECONDS } from '../auth';
import { HttpError, jsonObjectBody, ok, unauthorized } from '../http';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';

export const CREDENTIAL_EXCHANGE_PATH = '/auth/api/v1/bearer-token';

export function registerTokenRoute(router: Router<AuthContext>, sandbox: Sandbox): void {
	router.add(
		'POST',
		CREDENTIAL_EXCHANGE_PATH,
		(ctx) => {
			const body = jsonObjectBody(ctx.body, { key: 'message' });
			for (const field of ['client_id', 'client_secret'] as const) {
				const v = body[field];
				if (v === undefined || v === null || v === '') throw new HttpError(400, { message: `${field} is required` });
				if (typeof v !== 'string') throw new HttpError(400, { message: `${field} must be a string` });
			}
			const client = sandbox.tokens.findClient(body.client_id as string, body.client_secret as string);
			if (!client) throw unauthorized('Invalid client credentials');
			const token = sandbox.tokens.issue(client, sandbox.clock.nowMs(), sandbox.store.oneActiveTokenPerClient);
			if (sandbox.store.tokenFormat === 'public-docs') {
				return ok({ access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS });
			}
			return ok({ bearer_token: token, expires_in: TOKEN_LIFETIME_SECONDS });
		},
		false,
	);
}
