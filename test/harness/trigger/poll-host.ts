// A stand-in for one n8n instance hosting one workflow whose start node is the Consignment Vendor Item Trigger (a
// polling node), re-doing what n8n's cli does around poll() with n8n-core's real PollContext:
// - activation (ActiveWorkflows.activatePolling, 1.x and 2.x): one poll at once (mode 'trigger', activation
//   'activate', or 'init' when n8n starts), then one per Poll Times tick (`poll()` here: the test is the clock);
// - a poll that returns items starts one execution (`executions`) and saves the static data first (__emit:
//   WorkflowStaticDataService.saveStaticData, only when ObservableObject says it changed); a poll that returns
//   null saves nothing in 1.x (2.x commits a staged copy; the stricter 1.x rule is the one re-done here), and
//   activation saves once its first poll is done (ActiveWorkflowManager.add);
// - a scheduled poll that throws records the error (__emitError: an error execution), at activation it throws;
// - Fetch Test Event: poll() in mode 'manual' on a copy of the workflow, nothing saved.
// The live Workflow object is kept between polls, as n8n keeps it for the activation; restart() drops it and loads
// the saved static data again.
import { PollContext } from 'n8n-core';
import {
	NodeHelpers,
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeTypes,
	type IWorkflowExecuteAdditionalData,
	type WorkflowActivateMode,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import type { CredentialStore } from '../credential-store';
import { SANDBOX_CREDENTIAL_ID } from '../credential-store';
import { HarnessCredentialTypes } from '../credential-types';
import { HarnessCredentialsHelper } from '../credentials-helper';
import { HarnessNodeTypes } from '../node-types';
import { loadPackage } from '../package-loader';
import { additionalDataWith } from './additional-data';
import { takeChangedStaticData } from './n8n-lifecycle';

export const ITEM_TRIGGER_TYPE = 'n8n-nodes-consignment-vendor.consignmentVendorItemTrigger';
const NODE_NAME = 'Consignment Vendor Item Trigger';

export interface PollHostOptions {
	credentials: CredentialStore;
	credentialId?: string;
	/** The node's parameters as saved (n8n fills in defaults, Poll Times included). */
	parameters?: INodeParameters;
}

export interface PollRecord {
	activation: WorkflowActivateMode | 'tick' | 'manual';
	/** What poll() returned: the items of the execution it starts, or null. */
	items: INodeExecutionData[] | null;
	error?: Error;
}

export class PollHost {
	/** The workflow's saved static data: what n8n's database holds between restarts. */
	savedStaticData: IDataObject = {};
	staticDataSaves = 0;
	/** Every poll, oldest first. */
	readonly polls: PollRecord[] = [];
	private live: Workflow | undefined;

	constructor(
		private readonly nodeTypes: INodeTypes,
		private readonly additionalData: IWorkflowExecuteAdditionalData,
		private node: INode,
	) {}

	/** Items of every started execution (a poll that returned items), oldest first. */
	get executions(): INodeExecutionData[][] {
		return this.polls.flatMap((p) => (p.activation !== 'manual' && p.items ? [p.items] : []));
	}

	/** Activating the workflow: its first poll at once; an error there fails the activation. */
	async activate(activation: 'activate' | 'init' = 'activate'): Promise<INodeExecutionData[] | null> {
		this.live = this.workflow(this.savedStaticData);
		const items = await this.runPoll(this.live, 'trigger', activation, true);
		this.persist(this.live);
		return items;
	}

	/** One Poll Times tick of the active workflow. */
	async poll(): Promise<INodeExecutionData[] | null> {
		if (this.live === undefined) throw new Error('the workflow is not active');
		return await this.runPoll(this.live, 'trigger', 'tick', false);
	}

	/** n8n stopping (nothing saved: polls save when they emit) and starting again. */
	async restart(): Promise<INodeExecutionData[] | null> {
		this.live = undefined;
		return await this.activate('init');
	}

	deactivate(): void {
		this.live = undefined;
	}

	/** The editor's Fetch Test Event: a manual poll on a copy of the workflow; its static data is never saved. */
	async fetchTestEvent(): Promise<INodeExecutionData[] | null> {
		return await this.runPoll(this.workflow(this.savedStaticData), 'manual', 'manual', true);
	}

	/** Saves new node parameters, as editing the workflow in n8n would (takes effect at the next activation). */
	setParameters(parameters: INodeParameters): void {
		this.node = buildNode(this.nodeTypes, this.node.credentials!.consignmentVendorApi as { id: string; name: string }, parameters);
	}

	private async runPoll(
		workflow: Workflow,
		mode: WorkflowExecuteMode,
		activation: PollRecord['activation'],
		throwErrors: boolean,
	): Promise<INodeExecutionData[] | null> {
		const node = workflow.getNode(this.node.name) as INode;
		const nodeType = this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const record: PollRecord = { activation, items: null };
		const emit = () => {
			// __emit saves the static data before the execution starts.
			if (mode !== 'manual') this.persist(workflow);
		};
		const context = new PollContext(
			workflow,
			node,
			this.additionalData,
			mode,
			activation === 'tick' || activation === 'manual' ? 'activate' : activation,
			emit,
			(error) => {
				record.error = error;
			},
		);
		try {
			const result = await nodeType.poll!.call(context);
			record.items = result?.[0] ?? null;
			if (result !== null) context.__emit(result);
		} catch (error) {
			record.error = error as Error;
			this.polls.push(record);
			if (throwErrors) throw error;
			return null;
		}
		this.polls.push(record);
		return record.items;
	}

	private workflow(staticData: IDataObject): Workflow {
		return new Workflow({
			id: 'wf-item-trigger-1',
			name: 'Item trigger harness workflow',
			nodes: [structuredClone(this.node)],
			connections: {},
			active: true,
			nodeTypes: this.nodeTypes,
			staticData: structuredClone(staticData),
			settings: {},
		});
	}

	private persist(workflow: Workflow): void {
		const changed = takeChangedStaticData(workflow);
		if (changed === undefined) return;
		this.savedStaticData = changed as IDataObject;
		this.staticDataSaves++;
	}
}

function buildNode(nodeTypes: INodeTypes, credential: { id: string; name: string }, parameters: INodeParameters): INode {
	const node: INode = {
		id: 'item-trigger-node-1',
		name: NODE_NAME,
		type: ITEM_TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { consignmentVendorApi: credential },
	};
	const description = nodeTypes.getByNameAndVersion(ITEM_TRIGGER_TYPE, 1).description;
	node.parameters = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description) ?? {};
	return node;
}

export async function startPollHost(options: PollHostOptions): Promise<PollHost> {
	const loaded = await loadPackage();
	const nodeTypes = new HarnessNodeTypes(loaded, []);
	const credentialsHelper = new HarnessCredentialsHelper(options.credentials, new HarnessCredentialTypes(loaded));
	const stored = options.credentials.get(options.credentialId ?? SANDBOX_CREDENTIAL_ID);
	const additionalData = additionalDataWith(credentialsHelper, {
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
	});
	return new PollHost(nodeTypes, additionalData, buildNode(nodeTypes, { id: stored.id, name: stored.name }, options.parameters ?? {}));
}
