// A stand-in for one n8n instance hosting one workflow whose start node is the Consignment Vendor Item Trigger (a
// polling node), re-doing what n8n does around poll() with n8n-core's real PollContext. Read from n8n's own code:
// 1.123.81 (packages/core ActiveWorkflows.activatePolling / remove, packages/cli ActiveWorkflowManager.add /
// getExecutePollFunctions) and 2.41.1 (packages/core ActiveWorkflowTriggers.addAllTriggers / activatePollTrigger /
// remove, PollTriggerExecutor, packages/cli TriggerExecutionContextFactory.getExecutePollFunctions):
// - activation (`activate()`): n8n loads the workflow with its saved static data into a new Workflow object and makes
//   ONE PollContext for it (mode 'trigger'); it runs the first poll at once and waits for it (`executeTrigger(true)`:
//   an error fails the activation), then registers the Poll Times timer, whose every tick (`poll()` here: the test is
//   the clock) runs the same context again; after the first poll n8n saves the static data (when changed);
// - a poll that returns items saves the static data of ITS workflow object (when changed) and starts one execution
//   (`executions`); one that returns null saves nothing (both lines; 2.41's cursor commit is a no-op outside its
//   durable scheduler); a scheduled poll's error starts an error execution (recorded), the activation's is thrown;
// - replacing an activation (`activate()` again: saving or re-publishing an active workflow; `deactivate()`):
//   n8n 1.x only stops the old timers: a poll already running completes, starts its execution and saves the old
//   workflow object's static data. n8n 2.41 also marks the old registration superseded: its running poll's result,
//   and error, are discarded, and 2.41 removes the old registration before it activates the new one;
// - restart(): the process ends (running polls die with it), saved static data is loaded again ('init');
// - Fetch Test Event: poll() in mode 'manual' on a copy of the workflow, nothing saved.
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

/** Which n8n's lifecycle the host re-does (see the file comment): they differ on a replaced activation's running poll. */
export type N8nLine = '1.x' | '2.x';

export interface PollHostOptions {
	credentials: CredentialStore;
	credentialId?: string;
	/** The node's parameters as saved (n8n fills in defaults, Poll Times included). */
	parameters?: INodeParameters;
	/** Default '2.x'. */
	n8n?: N8nLine;
	/** The node's version in the workflow; default the newest. */
	typeVersion?: number;
	/**
	 * Called by `restart()`: n8n starting again is a new process, so the package's in-process state (loaded once per
	 * test process here) must be forgotten as a new process would not have it.
	 */
	onNewProcess?: () => void;
}

export interface PollRecord {
	activation: WorkflowActivateMode | 'tick' | 'manual';
	/** Which activation ran it (1 = the first `activate()`); 0 for Fetch Test Event. */
	activationNumber: number;
	/** What poll() returned: the items of the execution it starts, or null. */
	items: INodeExecutionData[] | null;
	error?: Error;
	/** n8n 2.41 threw the result (or error) away: the activation had been replaced meanwhile. */
	discarded?: boolean;
}

export interface StartedExecution {
	items: INodeExecutionData[];
	activationNumber: number;
	/** The workflow was inactive (deactivated, or its activation replaced) when the execution started. */
	afterReplacement: boolean;
}

/** One activation of the workflow: its Workflow object, its one poll context, whether n8n still runs it. */
interface Activation {
	number: number;
	workflow: Workflow;
	context: PollContext;
	/** Its timer still fires (1.x and 2.x stop it when the activation is replaced). */
	ticking: boolean;
	/** 2.41's registration token is still the workflow's (its polls' results count). */
	current: boolean;
	/** The process it lived in ended (restart): nothing it does reaches n8n. */
	dead: boolean;
}

export class PollHost {
	/** The workflow's saved static data: what n8n's database holds between restarts. */
	savedStaticData: IDataObject = {};
	staticDataSaves = 0;
	/** Every poll, oldest first. */
	readonly polls: PollRecord[] = [];
	/** Every started execution, oldest first. */
	readonly started: StartedExecution[] = [];
	/** Poll contexts n8n made (one per activation, one per Fetch Test Event). */
	contextsCreated = 0;
	private live: Activation | undefined;
	private activations = 0;

	constructor(
		private readonly nodeTypes: INodeTypes,
		private readonly additionalData: IWorkflowExecuteAdditionalData,
		private node: INode,
		readonly line: N8nLine,
		private readonly onNewProcess: () => void = () => undefined,
	) {}

	/** Items of every started execution, oldest first. */
	get executions(): INodeExecutionData[][] {
		return this.started.map((e) => e.items);
	}

	get isActive(): boolean {
		return this.live !== undefined && this.live.ticking;
	}

	/**
	 * Activating the workflow, or saving / re-publishing it while active ('update'): the running activation (if any) is
	 * replaced as the chosen n8n line does it, then the new one's first poll runs at once; an error there fails the
	 * activation. Resolves with what that poll returned.
	 */
	async activate(activation: 'activate' | 'init' | 'update' = 'activate'): Promise<INodeExecutionData[] | null> {
		this.replaceLive();
		const workflow = this.workflow(this.savedStaticData);
		const node = workflow.getNode(this.node.name) as INode;
		const live: Activation = { number: ++this.activations, workflow, context: undefined as unknown as PollContext, ticking: false, current: true, dead: false };
		live.context = this.pollContext(live, node, activation);
		this.live = live;
		let items: INodeExecutionData[] | null;
		try {
			items = await this.runPoll(live, activation, true);
		} catch (error) {
			live.current = false;
			if (this.live === live) this.live = undefined;
			throw error;
		}
		live.ticking = true;
		// ActiveWorkflowManager.add (1.x) / the publication (2.x) save the static data once the triggers are registered.
		this.persist(workflow);
		return items;
	}

	/** One Poll Times tick of the active workflow (start it without awaiting to overlap it with something else). */
	async poll(): Promise<INodeExecutionData[] | null> {
		const live = this.live;
		if (live === undefined || !live.ticking) throw new Error('the workflow is not active: no timer fires');
		return await this.runPoll(live, 'tick', false);
	}

	/** n8n stopping (nothing saved: polls save when they emit; running polls end with the process) and starting again. */
	async restart(): Promise<INodeExecutionData[] | null> {
		if (this.live !== undefined) this.live.dead = true;
		this.live = undefined;
		this.onNewProcess();
		return await this.activate('init');
	}

	/** Deactivating the workflow: its timer stops; a running poll goes on as the n8n line lets it. */
	deactivate(): void {
		this.replaceLive();
	}

	/** The editor's Fetch Test Event: a manual poll on a copy of the workflow; its static data is never saved. */
	async fetchTestEvent(): Promise<INodeExecutionData[] | null> {
		const workflow = this.workflow(this.savedStaticData);
		const manual: Activation = { number: 0, workflow, context: undefined as unknown as PollContext, ticking: false, current: true, dead: false };
		manual.context = this.pollContext(manual, workflow.getNode(this.node.name) as INode, 'manual');
		return await this.runPoll(manual, 'manual', true);
	}

	/** Saves new node parameters, as editing the workflow in n8n would (takes effect at the next activation). */
	setParameters(parameters: INodeParameters): void {
		this.node = buildNode(
			this.nodeTypes,
			this.node.credentials!.consignmentVendorApi as { id: string; name: string },
			parameters,
			this.node.typeVersion,
		);
	}

	/** The timer stops (1.x, 2.x); 2.41 also drops the registration, so a running poll of it is discarded. */
	private replaceLive(): void {
		const previous = this.live;
		if (previous === undefined) return;
		previous.ticking = false;
		if (this.line === '2.x') previous.current = false;
		this.live = undefined;
	}

	private pollContext(owner: Activation, node: INode, activation: WorkflowActivateMode | 'manual'): PollContext {
		this.contextsCreated++;
		const manual = activation === 'manual';
		return new PollContext(
			owner.workflow,
			node,
			this.additionalData,
			manual ? 'manual' : 'trigger',
			manual ? 'manual' : activation,
			// __emit: the static data of this activation's workflow object is saved, then the execution starts.
			(data) => {
				if (manual || owner.dead) return;
				this.persist(owner.workflow);
				this.started.push({ items: data[0] ?? [], activationNumber: owner.number, afterReplacement: this.live !== owner || !owner.current });
			},
			// __emitError: an error execution; the harness records the error on the poll instead.
			() => undefined,
		);
	}

	/** ActiveWorkflows' executeTrigger (1.x) / PollTriggerExecutor's (2.41) around one poll of `owner`'s context. */
	private async runPoll(owner: Activation, activation: PollRecord['activation'], testingTrigger: boolean): Promise<INodeExecutionData[] | null> {
		const context = owner.context;
		const node = context.getNode();
		const nodeType = this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const record: PollRecord = { activation, activationNumber: owner.number, items: null };
		// 2.41 skips a tick of a replaced registration (1.x stopped its timer, which is the same here).
		if (!testingTrigger && this.line === '2.x' && !owner.current) {
			record.discarded = true;
			this.polls.push(record);
			return null;
		}
		let result: INodeExecutionData[][] | null;
		try {
			result = await nodeType.poll!.call(context);
		} catch (error) {
			record.error = error as Error;
			if (!testingTrigger && this.line === '2.x' && !owner.current) record.discarded = true;
			this.polls.push(record);
			if (testingTrigger) throw error;
			return null;
		}
		record.items = result?.[0] ?? null;
		this.polls.push(record);
		if (!testingTrigger && this.line === '2.x' && !owner.current) {
			record.discarded = true;
			return null;
		}
		if (result !== null) context.__emit(result);
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

function buildNode(nodeTypes: INodeTypes, credential: { id: string; name: string }, parameters: INodeParameters, typeVersion: number): INode {
	const node: INode = {
		id: 'item-trigger-node-1',
		name: NODE_NAME,
		type: ITEM_TRIGGER_TYPE,
		typeVersion,
		position: [0, 0],
		parameters: {},
		credentials: { consignmentVendorApi: credential },
	};
	const description = nodeTypes.getByNameAndVersion(ITEM_TRIGGER_TYPE, typeVersion).description;
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
	const description = nodeTypes.getByNameAndVersion(ITEM_TRIGGER_TYPE).description;
	const newest = Array.isArray(description.version) ? Math.max(...description.version) : description.version;
	return new PollHost(
		nodeTypes,
		additionalData,
		buildNode(nodeTypes, { id: stored.id, name: stored.name }, options.parameters ?? {}, options.typeVersion ?? newest),
		options.n8n ?? '2.x',
		options.onNewProcess,
	);
}
