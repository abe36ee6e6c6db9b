/**
 * The credential the node's own requests (item Create/Upsert, resource-locator lists) authenticate with.
 * Calling `httpRequestWithAuthentication` with it is what applies the token exchange and n8n's
 * refresh-and-retry on a 401.
 */
import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'consignmentVendorApi';

/** The credential's Base URL: entered without /v1, and maybe with a trailing slash. */
export async function apiBaseUrl(context: IExecuteFunctions | ILoadOptionsFunctions): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return String(credentials.baseUrl ?? '').replace(/\/+$/, '');
}
