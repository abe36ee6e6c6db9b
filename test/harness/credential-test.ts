// What n8n does when a user clicks "Test" on a credential, for credential types with a declarative `test`
// request: a copy of n8n's cli CredentialsTester.testCredentials (packages/cli/src/services/credentials-tester.service.ts),
// request branch only. n8n-core's RoutingNode sends the request (so preAuthentication, the Bearer header and the
// 401 refresh run exactly as in n8n) and the type's `rules` turn the failure into the message the user sees.
import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	NodeHelpers,
	Workflow,
	type ICredentialsDecrypted,
	type INode,
	type INodeCredentialTestResult,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type IRunExecutionData,
} from 'n8n-workflow';

import type { CredentialStore } from './credential-store';
import { HarnessCredentialTypes } from './credential-types';
import { HarnessCredentialsHelper } from './credentials-helper';
import { loadPackage } from './package-loader';
import { baseAdditionalData } from './run-workflow';

/** Tests the stored credential `credentialId` as n8n's "Test" button does; returns n8n's result object. */
export async function testCredential(store: CredentialStore, credentialId: string): Promise<INodeCredentialTestResult> {
	const loadedPackage = await loadPackage();
	const credentialTypes = new HarnessCredentialTypes(loadedPackage);
	const credentialsHelper = new HarnessCredentialsHelper(store, credentialTypes);
	const stored = store.get(credentialId);
	const testRequest = credentialTypes.getByName(stored.type).test;
	if (testRequest === undefined) return { status: 'Error', message: 'No testing function found for this credential.' };

	const additionalData = baseAdditionalData(credentialsHelper);
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: stored.id,
		name: stored.name,
		type: stored.type,
		data: credentialsHelper.applyDefaultsAndOverwrites(additionalData, stored.data, stored.type, 'internal'),
	};

	// The cli borrows n8n-nodes-base.noOp's description; its name and the `temp` parameter are what tell
	// CredentialsHelper.preAuthentication that this is a credential test.
	const nodeTypeCopy = {
		description: {
			displayName: 'No Operation, do nothing',
			name: 'n8n-nodes-base.noOp',
			group: ['organization'],
			version: 1,
			description: 'No Operation',
			defaults: { name: 'No Operation, do nothing' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: stored.type, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' },
			],
		},
	} as unknown as INodeType;
	const nodeTypes: INodeTypes = {
		getKnownTypes: () => ({}),
		getByName: () => nodeTypeCopy,
		getByNameAndVersion: (_type: string, version?: number) => NodeHelpers.getVersionedNodeType(nodeTypeCopy, version),
	};
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: nodeTypeCopy.description.name,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [stored.type]: { id: stored.id, name: stored.name } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const runExecutionData = { resultData: { runData: {} } } as IRunExecutionData;
	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(executeFunctions, nodeTypeCopy, credentialsDecrypted);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as { message: string; cause?: { response?: { status: number; statusText?: string }; code?: string } };
		if (error.cause?.response) {
			const { status, statusText } = error.cause.response;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && status === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 199 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: error.message.toString() };
	}

	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const body = response?.[0]?.[0]?.json ?? {};
			if (valueAtPath(body, rule.properties.key) === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/** lodash `get` for the dotted keys of a responseSuccessBody rule. */
function valueAtPath(value: unknown, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>((current, key) => (current as Record<string, unknown> | undefined)?.[key], value);
}
