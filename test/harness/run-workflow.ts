// Runs a workflow through n8n-core's real WorkflowExecute, in this process. Node execution, declarative
// routing (RoutingNode), pagination, expressions, continueOnFail/onError, the token refresh on 401 and the
// HTTP requests are all n8n's own code; the harness only supplies what n8n's cli would: the node types, a
// credentials helper (./credentials-helper.ts) and IWorkflowExecuteAdditionalData.
import { ExecutionLifecycleHooks, ExternalSecretsProxy, WorkflowExecute } from 'n8n-core';
import {
	Workflow,
	type ExecutionBaseError,
	type IConnections,
	type ICredentialType,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type IRun,
	type IVersionedNodeType,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type IWorkflowSettings,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import type { CredentialStore } from './credential-store';
import { HarnessCredentialTypes } from './credential-types';
import { HarnessCredentialsHelper } from './credentials-helper';
import { n8nUrls } from './n8n-runtime';
import { HarnessNodeTypes } from './node-types';
import { loadPackage } from './package-loader';
import { ITEMS_SOURCE_TYPE, MANUAL_TRIGGER_TYPE } from './test-nodes';

export interface HarnessWorkflow {
	nodes: INode[];
	connections: IConnections;
	/** Default `{ executionOrder: 'v1' }`, what n8n gives every new workflow. */
	settings?: IWorkflowSettings;
}

export interface RunOptions {
	credentials: CredentialStore;
	/** More node types, registered as this package's nodes (`n8n-nodes-consignment-vendor.<name>`). */
	nodeTypes?: Array<INodeType | IVersionedNodeType>;
	/**
	 * Credential type instances to use instead of the loaded ones of the same name. A copy of the credential's
	 * module loaded apart (`jest.isolateModules`) has its own token cache: a second n8n process sharing the
	 * credential store, as in queue mode (see test/integration/token-processes.test.ts).
	 */
	credentialTypes?: ICredentialType[];
	/** The items the workflow's items-source node emits (one per object, all paired with the trigger item). */
	inputItems?: IDataObject[];
	/** Default 'manual', as when a user clicks "Execute workflow". */
	mode?: WorkflowExecuteMode;
	/**
	 * The workflow's static data (what n8n stores with the workflow): written through during the run, so passing the
	 * same object to the next run is what n8n does after a production execution.
	 */
	staticData?: IDataObject;
	/** Default 'harness-workflow'. Two workflows of one n8n instance have two ids (node memories are kept per workflow). */
	workflowId?: string;
}

export interface RunResult {
	run: IRun;
	/** The error that stopped the workflow (n8n's `run.data.resultData.error`), if any. */
	error?: ExecutionBaseError;
	/** The last run's output of every node that ran, per output index (error output included). */
	outputs: Record<string, INodeExecutionData[][]>;
	/** Node names in the order n8n finished them. */
	executionOrder: string[];
}

let executionCounter = 0;

export async function runWorkflow(workflow: HarnessWorkflow, options: RunOptions): Promise<RunResult> {
	const mode = options.mode ?? 'manual';
	const loadedPackage = await loadPackage();
	const nodeTypes = new HarnessNodeTypes(loadedPackage, options.nodeTypes ?? []);
	const credentialsHelper = new HarnessCredentialsHelper(
		options.credentials,
		new HarnessCredentialTypes(loadedPackage, options.credentialTypes),
	);

	const workflowData: IWorkflowBase = {
		id: options.workflowId ?? 'harness-workflow',
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: withInputItems(workflow.nodes, options.inputItems),
		connections: workflow.connections,
		settings: workflow.settings ?? { executionOrder: 'v1' },
	};
	const workflowInstance = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes: workflowData.nodes,
		connections: workflowData.connections,
		settings: workflowData.settings,
		active: false,
		nodeTypes,
		staticData: options.staticData,
	});

	const executionId = `harness-execution-${++executionCounter}`;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const executionOrder: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executionOrder.push(nodeName);
	});
	const additionalData: IWorkflowExecuteAdditionalData = {
		...baseAdditionalData(credentialsHelper),
		hooks,
		executionId,
		workflowId: workflowData.id,
		workflowSettings: workflowData.settings,
	};

	const startNode =
		workflowData.nodes.find((node) => node.type === MANUAL_TRIGGER_TYPE) ?? workflowInstance.getStartNode();
	const run = await new WorkflowExecute(additionalData, mode).run({ workflow: workflowInstance, startNode });
	return { run, error: run.data.resultData.error, outputs: outputsOf(run), executionOrder };
}

/**
 * The parts of n8n's cli `getBase()` (packages/cli/src/workflow-execute-additional-data.ts) that a run of these
 * nodes reaches. Sub-workflows, AI agents and the Code node's task runner are outside what the harness offers.
 */
export function baseAdditionalData(credentialsHelper: HarnessCredentialsHelper): IWorkflowExecuteAdditionalData {
	const notInHarness = (what: string) => async (): Promise<never> => {
		throw new Error(`${what} is not available in the test harness`);
	};
	return {
		...n8nUrls,
		credentialsHelper,
		userId: 'harness-user',
		currentNodeExecutionIndex: 0,
		variables: {},
		// No external-secrets provider is connected, so `$secrets` resolves nothing, as in an n8n without one.
		externalSecretsProxy: new ExternalSecretsProxy(),
		executeWorkflow: notInHarness('Executing a sub-workflow'),
		startRunnerTask: notInHarness('The Code node task runner'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		setExecutionStatus: () => {},
	};
}

function withInputItems(nodes: INode[], inputItems: IDataObject[] | undefined): INode[] {
	const copies = structuredClone(nodes);
	if (inputItems === undefined) return copies;
	const sources = copies.filter((node) => node.type === ITEMS_SOURCE_TYPE);
	if (sources.length === 0) {
		throw new Error(`inputItems were given but the workflow has no "${ITEMS_SOURCE_TYPE}" node to emit them`);
	}
	for (const source of sources) source.parameters = { ...source.parameters, items: JSON.stringify(inputItems) };
	return copies;
}

function outputsOf(run: IRun): Record<string, INodeExecutionData[][]> {
	const outputs: Record<string, INodeExecutionData[][]> = {};
	for (const [nodeName, tasks] of Object.entries(run.data.resultData.runData)) {
		const main = tasks.at(-1)?.data?.main ?? [];
		outputs[nodeName] = main.map((items) => items ?? []);
	}
	return outputs;
}
