// Client credentials and bearer tokens. Tokens live 3600 s on the sandbox clock; the `revokeTokens` fault
// forgets them all. Two clients exist: the vendor user, and a non-vendor user whose token sees no consignments
// and is refused (403) by the vendor-only endpoints.
import { randomBytes } from 'node:crypto';

import { unauthorized } from './http';

export const TOKEN_LIFETIME_SECONDS = 3600;

export interface SandboxClient {
	clientId: string;
	clientSecret: string;
	vendorUser: boolean;
}

export const VENDOR_CLIENT: SandboxClient = {
	clientId: 'sandbox-client-id',
	clientSecret: 'sandbox-client-secret',
	vendorUser: true,
};

export const NON_VENDOR_CLIENT: SandboxClient = {
	clientId: 'sandbox-nonvendor-id',
	clientSecret: 'sandbox-nonvendor-secret',
	vendorUser: false,
};

export const CLIENTS: readonly SandboxClient[] = [VENDOR_CLIENT, NON_VENDOR_CLIENT];

/** What an authenticated route learns about its caller. */
export interface AuthContext {
	clientId: string;
	vendorUser: boolean;
}

interface IssuedToken extends AuthContext {
	expiresAtMs: number;
}

export class TokenStore {
	private readonly tokens = new Map<string, IssuedToken>();

	findClient(clientId: string, clientSecret: string): SandboxClient | undefined {
		return CLIENTS.find((c) => c.clientId === clientId && c.clientSecret === clientSecret);
	}

	issue(client: SandboxClient, nowMs: number): string {
		const token = `sbx_${randomBytes(24).toString('hex')}`;
		this.tokens.set(token, {
			clientId: client.clientId,
			vendorUser: client.vendorUser,
			expiresAtMs: nowMs + TOKEN_LIFETIME_SECONDS * 1000,
		});
		return token;
	}

	/** Throws the contract's 401 `{message}` for a missing, malformed, unknown, expired or revoked token. */
	verify(authorization: string | undefined, nowMs: number): AuthContext {
		if (!authorization) throw unauthorized('Missing Authorization header');
		const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
		if (!m) throw unauthorized('Authorization header must be "Bearer <token>"');
		const issued = this.tokens.get(m[1]);
		if (!issued) throw unauthorized('Invalid or revoked bearer token');
		if (nowMs >= issued.expiresAtMs) throw unauthorized('Bearer token has expired');
		return { clientId: issued.clientId, vendorUser: issued.vendorUser };
	}

	/** The client a valid token belongs to, or undefined (never throws: the route answers the 401). */
	clientOf(authorization: string | undefined, nowMs: number): string | undefined {
		try {
			return this.verify(authorization, nowMs).clientId;
		} catch {
			return undefined;
		}
	}

	revokeAll(): void {
		this.tokens.clear();
	}
}
