import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { apiPaths } from '../nodes/shared/apiPaths';
import { noteTokenInUse, sharedAccessToken } from './sharedAccessToken';
import { checkToken } from './tokenCheck';
import { exchangeClientCredentials, TokenExchangeError, type ClientCredentials } from './tokenExchange';

export class ConsignmentVendorApi implements ICredentialType {
	name = 'consignmentVendorApi';

	displayName = 'Consignment Vendor API';

	icon: Icon = { light: 'file:consignmentVendor.svg', dark: 'file:consignmentVendor.dark.svg' };

	documentationUrl = 'https://github.com/consignment-vendor/n8n-nodes-consignment-vendor#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.com',
			description:
				'Address of the vendor API as given in the service\'s vendor API documentation, without the trailing /v1',
			hint: 'Enter it without /v1: the node adds /v1/... to every request',
		},
		{
			displayName: 'Auth URL',
			name: 'authUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://auth.example.com',
			description:
				'Address of the service\'s token endpoint without its /api/v1/bearer-token ending: the host, plus a path when the service sits under one. The node requests tokens from {Auth URL}/api/v1/bearer-token.',
			hint: 'Leave out /api/v1/bearer-token (the node appends it); keep any path before it, e.g. https://example.com/auth',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description:
				'Generated (or regenerated) in the service\'s vendor portal by a user with permission to manage API access',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Generated together with the Client ID in the service\'s vendor portal, by a user with permission to manage API access',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSigningSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Optional. Only used by the Consignment Vendor Trigger: the signing secret created in the vendor portal. When set, webhook calls without a matching X-TRR-Signature header are rejected.',
			hint: 'Leave empty if no signing secret was created for the vendor',
		},
		{
			// Filled by preAuthentication and stored by n8n; `expirable` makes n8n exchange a new one on a 401.
			// `password` keeps n8n from sending the stored token to the browser with the credential.
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	/**
	 * Called by n8n when the stored token is empty, and again with the token it just used when the API
	 * answered 401. Concurrent calls share one exchange, and after a 401 the token handed back is one the API
	 * just accepted (see sharedAccessToken: several n8n processes share this credential in queue mode).
	 */
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		const client = clientCredentialsOf(credentials);
		const heldToken =
			typeof credentials.accessToken === 'string' && credentials.accessToken !== ''
				? credentials.accessToken
				: undefined;
		const httpRequest = async (options: IHttpRequestOptions) => await this.helpers.httpRequest(options);
		const accessToken = await sharedAccessToken(
			client,
			heldToken,
			async () => await exchangeClientCredentials(httpRequest, client),
			async (token) => await checkToken(httpRequest, String(credentials.baseUrl ?? ''), token),
		);
		return { accessToken };
	}

	/**
	 * The stored token as a Bearer header. A function rather than n8n's generic form because it also tells
	 * the token cache which token n8n read from the database for this request (maybe another process's).
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return withBearerToken(requestOptions, noteStoredToken(credentials));
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: apiPaths.vendor,
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API rejected the access token (HTTP 401). Check the Client ID and Client Secret, and that the Base URL and Auth URL belong to the same environment.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API refused access (HTTP 403). The user who generated this Client ID and Client Secret lacks permission to use the vendor API: ask an administrator of the vendor portal to grant it, or generate the pair as a user who has it.',
				},
			},
		],
	};
}

/**
 * The credential's stored token (empty when none is stored yet), noted for the token cache as the one requests
 * carry (maybe another process's): the first candidate when a 401 needs a replacement (sharedAccessToken.ts).
 * Also used by the transport, which holds the token for a run instead of having n8n load the credential per request.
 */
export function noteStoredToken(credentials: ICredentialDataDecryptedObject): string {
	const token = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
	if (token !== '') {
		try {
			noteTokenInUse(clientCredentialsOf(credentials), token);
		} catch {
			// An incomplete credential: the request goes out and fails on its own; nothing to note.
		}
	}
	return token;
}

/** The request with the token as the API takes it: what `authenticate` does, in one place. */
export function withBearerToken(requestOptions: IHttpRequestOptions, token: string): IHttpRequestOptions {
	return { ...requestOptions, headers: { ...requestOptions.headers, Authorization: `Bearer ${token}` } };
}

function clientCredentialsOf(credentials: ICredentialDataDecryptedObject): ClientCredentials {
	const read = (field: string, label: string): string => {
		const value = credentials[field];
		if (typeof value !== 'string' || value.trim() === '') {
			throw new TokenExchangeError(
				`The Consignment Vendor API credential has no ${label}`,
				`Open the credential and fill in ${label}.`,
			);
		}
		return value;
	};
	return {
		authUrl: read('authUrl', 'Auth URL'),
		clientId: read('clientId', 'Client ID').trim(),
		clientSecret: read('clientSecret', 'Client Secret'),
	};
}
