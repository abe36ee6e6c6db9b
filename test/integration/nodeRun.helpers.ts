// Shared by the integration tests (the trigger's too, see trigger.helpers.ts): one sandbox per test file,
// reset before each test, and `runNode` / `runPackageNode` to run the node once through n8n-core (harness),
// as n8n loads it from this package, and read what the sandbox logged.
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import {
	buildWorkflow,
	CredentialStore,
	forgetSchedulers,
	forgetSharedAccessTokens,
	packageNodeType,
	runWorkflow,
	sandboxCredential,
	type NodeSettings,
	type RunResult,
} from '../harness';
import { forgetListingCosts } from '../../nodes/ConsignmentVendor/resources/item/upsert/itemCatalog';
import { forgetProcessLedger } from '../../nodes/ConsignmentVendor/resources/item/helpers/submissionLedger';
import { forgetSentMemoryJournals } from '../../nodes/ConsignmentVendor/resources/item/upsert/sentMemory';
import { forgetRefusedPageSizes } from '../../nodes/shared/pagination';
import { startSandbox, type RequestLogEntry, type RunningSandbox } from '../sandbox';

export const NODE_NAME = 'Consignment Vendor';

/** The credential's token exchange: `{authUrl}/api/v1/bearer-token`, the sandbox's authUrl being `<url>/auth`. */
export const isTokenExchange = (request: RequestLogEntry) => request.path === '/auth/api/v1/bearer-token';

/**
 * Starts a sandbox for the test file and resets it before each test. The credential's in-process token cache is
 * emptied too, so no test uses a token an earlier test obtained (or had revoked) and each counts its own exchanges;
 * and so is the account's ledger of submissions: the reset service holds none of them.
 */
export function useSandbox(options: { seed?: boolean } = {}): () => RunningSandbox {
	let sandbox: RunningSandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, seed: options.seed });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	beforeEach(async () => {
		await sandbox!.admin.reset();
		forgetPackageProcessMemory();
	});
	return () => sandbox!;
}

/** Everything the package keeps in the n8n process (a restart, or a new process): tokens, queues, page sizes, costs, the ledger, runs going on. */
export function forgetPackageProcessMemory(): void {
	forgetSharedAccessTokens();
	forgetSchedulers();
	forgetRefusedPageSizes();
	forgetListingCosts();
	forgetProcessLedger();
	forgetSentMemoryJournals();
}

/** Runs the node (version 1 unless `typeVersion` says) once over `inputItems`, with the store's credential `cred-1`. */
export async function runPackageNode(
	store: CredentialStore,
	parameters: INodeParameters,
	inputItems: IDataObject[],
	settings?: NodeSettings,
	typeVersion?: number,
): Promise<RunResult> {
	const workflow = buildWorkflow({
		type: packageNodeType('consignmentVendor'),
		name: NODE_NAME,
		typeVersion,
		parameters,
		credential: store.get('cred-1'),
		settings,
	});
	return await runWorkflow(workflow, { credentials: store, inputItems });
}

/** The node's main output 0. */
export function outputOf(result: RunResult): INodeExecutionData[] {
	return result.outputs[NODE_NAME]?.[0] ?? [];
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

/** Runs the node once against a cleared request log; a new credential store unless one is given. */
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
	const result = await runPackageNode(store, parameters, options.inputItems ?? [{}], options.settings);
	const allRequests = await sandbox.admin.requests();
	return {
		result,
		items: outputOf(result),
		requests: allRequests.filter((request) => !isTokenExchange(request)),
		allRequests,
	};
}

/** `{ field: typeof value }` of a logged JSON body, to assert the JSON types that were sent. */
/**
 * One output item of Item → Create/Upsert as a flat record: a success as is; a failure (n8n's error item,
 * `{ error, message }`) with `status: 'failed'` added.
 */
export function resultOf(item: INodeExecutionData): IDataObject {
	return item.json.error === undefined ? item.json : { status: 'failed', ...item.json };
}

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
