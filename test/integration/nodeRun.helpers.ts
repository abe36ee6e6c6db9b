// Shared by the integration tests of the Consignment Vendor node's address, vendor, consignment, order and
// pagination operations: one sandbox per test file, reset before each test, and `runNode` to run the node once
// through n8n-core (harness) and read what the sandbox logged.
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import {
	buildWorkflow,
	CredentialStore,
	forgetSharedAccessTokens,
	packageNodeType,
	runWorkflow,
	sandboxCredential,
	type NodeSettings,
	type RunResult,
} from '../harness';
import { startSandbox, type RequestLogEntry, type RunningSandbox } from '../sandbox';

export const NODE = 'Consignment Vendor';
/** Requests to the sandbox's auth URL (`<url>/auth`): the token exchange. */
export const isAuthRequest = (request: RequestLogEntry) => request.path.startsWith('/auth/');

/** Starts a sandbox for the test file and resets it (and the credential's token cache) before each test. */
export function useSandbox(): () => RunningSandbox {
	let sandbox: RunningSandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	beforeEach(async () => {
		await sandbox!.admin.reset();
		forgetSharedAccessTokens();
	});
	return () => sandbox!;
}

export interface NodeRun {
	result: RunResult;
	/** The node's main output 0. */
	items: INodeExecutionData[];
	/** API requests the sandbox logged during the run, token exchanges left out. */
	requests: RequestLogEntry[];
	/** Every logged request, token exchanges included. */
	allRequests: RequestLogEntry[];
}

export async function runNode(
	sandbox: RunningSandbox,
	parameters: INodeParameters,
	options: {
		inputItems?: IDataObject[];
		settings?: NodeSettings;
		store?: CredentialStore;
	} = {},
): Promise<NodeRun> {
	const store = options.store ?? new CredentialStore([sandboxCredential(sandbox)]);
	await sandbox.admin.clearRequests();
	const result = await runWorkflow(
		buildWorkflow({
			type: packageNodeType('consignmentVendor'),
			name: NODE,
			parameters,
			credential: store.get('cred-1'),
			settings: options.settings,
		}),
		{ credentials: store, inputItems: options.inputItems ?? [{}] },
	);
	const allRequests = await sandbox.admin.requests();
	return {
		result,
		items: result.outputs[NODE]?.[0] ?? [],
		requests: allRequests.filter((request) => !isAuthRequest(request)),
		allRequests,
	};
}

/** `{ field: typeof value }` of a logged JSON body, to assert the JSON types that were sent. */
export function jsonTypes(body: unknown): Record<string, string> {
	const types: Record<string, string> = {};
	for (const [key, value] of Object.entries((body ?? {}) as IDataObject)) {
		types[key] = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
	}
	return types;
}

/** A resource-locator value as the n8n editor stores it. */
export function locator(value: string, mode: 'list' | 'id' = 'list') {
	return { __rl: true, mode, value };
}
