// The harness's stand-in for n8n's credentials table: what `getDecrypted` reads and what `updateCredentials`
// writes. It lives as long as the test keeps it, so a token stored by one run is reused by the next, as in n8n.
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { RunningSandbox } from '../sandbox';

export interface HarnessCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

export class CredentialStore {
	private readonly byId = new Map<string, HarnessCredential>();

	/** Every `updateCredentials` n8n made, oldest first (what it would have written to the database). */
	readonly writes: Array<{ id: string; type: string; data: ICredentialDataDecryptedObject }> = [];

	constructor(credentials: HarnessCredential[]) {
		for (const credential of credentials) this.byId.set(credential.id, clone(credential));
	}

	/** A copy of the stored credential, like a fresh database read. Throws for an unknown id. */
	get(id: string): HarnessCredential {
		const credential = this.byId.get(id);
		if (credential === undefined) {
			throw new Error(`Harness credential store has no credential with id "${id}" (known: ${[...this.byId.keys()].join(', ') || 'none'})`);
		}
		return clone(credential);
	}

	/** Replaces the stored data, as n8n's CredentialsHelper.updateCredentials replaces the row's data. */
	update(id: string, type: string, data: ICredentialDataDecryptedObject): void {
		const credential = this.byId.get(id);
		if (credential === undefined || credential.type !== type) {
			throw new Error(`Harness credential store has no credential "${id}" of type "${type}"`);
		}
		credential.data = clone(data);
		this.writes.push({ id, type, data: clone(data) });
	}

	/** Changes stored fields from a test (for example to store a wrong secret between runs). */
	patch(id: string, data: ICredentialDataDecryptedObject): void {
		const credential = this.byId.get(id);
		if (credential === undefined) throw new Error(`Harness credential store has no credential with id "${id}"`);
		credential.data = { ...credential.data, ...clone(data) };
	}
}

export type ConsignmentVendorCredentialData = {
	baseUrl: string;
	authUrl: string;
	clientId: string;
	clientSecret: string;
	webhookSigningSecret: string;
	accessToken: string;
};

export const SANDBOX_CREDENTIAL_ID = 'cred-1';

/** The Consignment Vendor API credential pointing at a sandbox: id 'cred-1', no stored token yet. */
export function sandboxCredential(
	sandbox: Pick<RunningSandbox, 'baseUrl' | 'authUrl' | 'clientId' | 'clientSecret'>,
	overrides: Partial<ConsignmentVendorCredentialData> = {},
): HarnessCredential {
	const data: ConsignmentVendorCredentialData = {
		baseUrl: sandbox.baseUrl,
		authUrl: sandbox.authUrl,
		clientId: sandbox.clientId,
		clientSecret: sandbox.clientSecret,
		webhookSigningSecret: '',
		accessToken: '',
		...overrides,
	};
	return { id: SANDBOX_CREDENTIAL_ID, name: 'Consignment Vendor sandbox', type: 'consignmentVendorApi', data };
}

function clone<T>(value: T): T {
	return structuredClone(value);
}
