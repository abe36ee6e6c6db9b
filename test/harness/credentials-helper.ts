// The harness's ICredentialsHelper: a small, faithful copy of what n8n's cli CredentialsHelper does
// (packages/cli/src/credentials-helper.ts, n8n 2.x; the same logic as 1.x where noted), with the credentials
// table replaced by a CredentialStore. Everything around it (when preAuthentication runs, the Bearer header
// being applied, the 401 refresh and retry) is n8n-core's own code calling into this class.
import { getAdditionalKeys } from 'n8n-core';
import {
	getCredentialOwnRequestAllowedDomains,
	ICredentialsHelper,
	isExpression,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialsExpressionResolveValues,
	type IExecuteData,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeParameters,
	type INodeProperties,
	type IRequestOptionsSimplified,
	type IWorkflowDataProxyAdditionalKeys,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import type { CredentialStore } from './credential-store';
import type { HarnessCredentialTypes } from './credential-types';
import { mockNode, mockNodeTypes } from './mock-node';
import { StoredCredentials } from './stored-credentials';

export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly store: CredentialStore,
		private readonly credentialTypes: HarnessCredentialTypes,
	) {
		super();
	}

	/** cli: resolves a generic `authenticate` with `{ $credentials }` as the only extra key. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (typeof authenticate === 'object') {
			if (!workflow || !node) throw new Error('Workflow and node are required for declarative credential authentication');
			requestOptions.headers ??= {};
			if (authenticate.type === 'generic') {
				for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
					const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
					target[outerKey] ??= {};
					for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
						const keyResolved = this.resolveValue(key, { $credentials: credentials }, workflow, node);
						target[outerKey][keyResolved] = this.resolveValue(value, { $credentials: credentials }, workflow, node);
					}
				}
			}
		}
		return requestOptions;
	}

	/**
	 * cli: runs the type's preAuthentication when the expirable field is empty, when n8n-core says the
	 * credential expired (a 401) or for a credential test; persists the result into the stored (not the
	 * expression-resolved) data, and hands it back merged into `credentials`.
	 */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property?.typeOptions?.expirable === true,
		);
		if (expirableProperty?.name === undefined) return undefined;

		const isTestingCredentials = node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		if (!(credentials[expirableProperty.name] === '' || credentialsExpired || isTestingCredentials)) return undefined;

		const output = await credentialType.preAuthentication.call(
			restrictToCredentialDomains(helpers, credentials),
			credentials,
		);
		if (output[expirableProperty.name] === undefined) return undefined;
		if (!node.credentials) return undefined;

		const nodeCredentials = node.credentials[credentialType.name];
		const storedData = await (await this.getCredentials(nodeCredentials, credentialType.name)).getData();
		const dataToPersist: ICredentialDataDecryptedObject = { ...storedData };
		for (const [key, value] of Object.entries(output as ICredentialDataDecryptedObject)) {
			if (key === expirableProperty.name || !isExpression(storedData[key])) dataToPersist[key] = value;
		}
		await this.updateCredentials(nodeCredentials, credentialType.name, dataToPersist);
		return Object.assign(credentials, output);
	}

	/** cli: the hook without the expirable guard or persistence (used by n8n-core's OAuth2 path only). */
	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const output = await credentialType.preAuthentication.call(
			restrictToCredentialDomains(helpers, credentials),
			credentials,
		);
		return output as ICredentialDataDecryptedObject;
	}

	getParentTypes(typeName: string): string[] {
		return this.credentialTypes.getParentTypes(typeName);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		if (!this.credentialTypes.getByName(credentialType).restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	/** cli: the stored row as an ICredentials whose getData() is the stored (unresolved) data. */
	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		const stored = this.stored(nodeCredentials, type);
		return new StoredCredentials({ id: stored.id, name: stored.name }, stored.type, stored.data);
	}

	/** cli: stored data + the type's defaults, with expressions in credential fields resolved. */
	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		// n8n reads the row from its database on every call; keep the read asynchronous like that.
		await new Promise((resolve) => setImmediate(resolve));
		const { data } = this.stored(nodeCredentials, type);
		if (raw === true) return data;
		return this.applyDefaultsAndOverwrites(additionalData, data, type, mode, executeData, expressionResolveValues);
	}

	/** cli: the type's defaults added (there are no overwrites here) and expressions in the fields resolved. */
	applyDefaultsAndOverwrites(
		additionalData: IWorkflowExecuteAdditionalData,
		data: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const credentialsProperties = this.getCredentialsProperties(type);
		let decryptedData = NodeHelpers.getNodeParameters(
			credentialsProperties,
			data as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (data.oauthTokenData !== undefined) decryptedData.oauthTokenData = data.oauthTokenData;

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			decryptedData = expressionResolveValues.workflow.expression.getParameterValue(
				decryptedData as INodeParameters,
				expressionResolveValues.runExecutionData,
				expressionResolveValues.runIndex,
				expressionResolveValues.itemIndex,
				expressionResolveValues.node.name,
				expressionResolveValues.connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				decryptedData,
			) as ICredentialDataDecryptedObject;
		} else {
			const workflow = new Workflow({ nodes: [mockNode], connections: {}, active: false, nodeTypes: mockNodeTypes });
			decryptedData = workflow.expression.getComplexParameterValue(
				mockNode,
				decryptedData as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decryptedData,
			) as ICredentialDataDecryptedObject;
		}
		return decryptedData;
	}

	/** cli writes the row in its database; the harness writes its store, which outlives the run. */
	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.update(this.stored(nodeCredentials, type).id, type, data);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.stored(nodeCredentials, type);
		this.store.update(stored.id, type, { ...stored.data, oauthTokenData: data.oauthTokenData });
	}

	/** cli: the type's properties, merged over those of the types it extends. */
	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialTypeData = this.credentialTypes.getByName(type);
		if (credentialTypeData.extends === undefined) return credentialTypeData.properties;
		const combined: INodeProperties[] = [];
		for (const parent of credentialTypeData.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialTypeData.properties);
		return combined;
	}

	private stored(nodeCredentials: INodeCredentialsDetails, type: string) {
		if (!nodeCredentials?.id) {
			throw new Error(`The node's "${type}" credential has no id (n8n: CredentialMissingIdError)`);
		}
		const stored = this.store.get(nodeCredentials.id);
		if (stored.type !== type) {
			throw new Error(`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`);
		}
		return stored;
	}

	private resolveValue(
		parameterValue: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const returnValue = workflow.expression.getSimpleParameterValue(node, parameterValue, 'internal', additionalKeys, undefined, '');
		if (!returnValue) return '';
		return returnValue.toString();
	}
}

/** cli: what preAuthentication's own requests may reach follows the credential's domain allowlist. */
function restrictToCredentialDomains(
	helpers: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): IHttpRequestHelper {
	return {
		helpers: {
			httpRequest: async (requestOptions: IHttpRequestOptions) => {
				const allowedDomains = getCredentialOwnRequestAllowedDomains(credentials);
				if (allowedDomains === undefined) return await helpers.helpers.httpRequest(requestOptions);
				if (requestOptions.allowedDomains !== undefined) {
					throw new Error(
						'This credential restricts requests to specific domains, which cannot be combined with the domains its authentication step asks for.',
					);
				}
				return await helpers.helpers.httpRequest({ ...requestOptions, allowedDomains });
			},
		},
	} as IHttpRequestHelper;
}
