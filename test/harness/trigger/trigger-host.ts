// A stand-in for one n8n instance hosting one workflow whose start node is the Consignment Vendor Trigger:
// a real HTTP server on 127.0.0.1 serving n8n's /webhook/ and /webhook-test/ paths, the workflow's saved
// static data (its database column), and the activation / restart / deactivation / test-listening steps
// n8n performs (see n8n-lifecycle.ts). Requests are fed to the node's webhook() with their raw body and
// headers (see webhook-call.ts), so the sandbox's deliveries travel over real HTTP end to end.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	NodeHelpers,
	Workflow,
	type ICredentialsHelper,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeTypes,
	type IWebhookData,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { shimRequest, shimResponse } from './express-shim';
import {
	createWebhookIfNotExists,
	runWebhookMethod,
	takeChangedStaticData,
	webhookDataFor,
	type WebhookMethodCall,
} from './n8n-lifecycle';
import { handleWebhookCall, type WebhookCallResult } from './webhook-call';

export const TRIGGER_TYPE = 'n8n-nodes-consignment-vendor.consignmentVendorTrigger';

export interface TriggerHostOptions {
	nodeTypes: INodeTypes;
	/** Builds the additionalData n8n would pass (credentials helper included), given the webhook base URLs. */
	additionalData: (urls: { webhookBaseUrl: string; webhookTestBaseUrl: string }) => IWorkflowExecuteAdditionalData;
	/** node.credentials.consignmentVendorApi */
	credential: { id: string; name: string };
	/** The node's parameters as saved in the workflow (n8n fills in defaults for the rest). */
	parameters?: INodeParameters;
	nodeName?: string;
	workflowId?: string;
	/** The node's webhookId (n8n gives every new webhook node one); null = an old node without it. */
	webhookId?: string | null;
}

export interface ReceivedCall extends WebhookCallResult {
	kind: 'production' | 'test';
}

export type { ICredentialsHelper };

export class TriggerHost {
	/** The workflow's saved static data: what n8n's database holds between activations and restarts. */
	savedStaticData: IDataObject = {};
	/** Every time n8n would have written static data to the database. */
	staticDataSaves = 0;
	/** Every webhook call the host answered, oldest first. */
	readonly calls: ReceivedCall[] = [];
	/** Every webhookMethods call n8n made, oldest first. */
	readonly methodCalls: WebhookMethodCall[] = [];

	private active = false;
	/** Test listening state: the never-saved static data n8n keeps with the test registration. */
	private testListening: { staticData: IDataObject } | undefined;
	private readonly pending = new Set<Promise<void>>();
	private arrivalWaiters: Array<() => void> = [];
	private node: INode;
	private readonly additionalData: IWorkflowExecuteAdditionalData;

	private constructor(
		private readonly server: Server,
		readonly origin: string,
		private readonly options: TriggerHostOptions,
	) {
		this.additionalData = options.additionalData({
			webhookBaseUrl: `${origin}/webhook`,
			webhookTestBaseUrl: `${origin}/webhook-test`,
		});
		this.node = this.buildNode(options.parameters ?? {});
	}

	static async start(options: TriggerHostOptions): Promise<TriggerHost> {
		const ready: { host?: TriggerHost } = {};
		const server = createServer((req, res) => ready.host?.onRequest(req, res));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		ready.host = new TriggerHost(server, `http://127.0.0.1:${port}`, options);
		return ready.host;
	}

	get workflowId(): string {
		return this.options.workflowId ?? 'wf-trigger-1';
	}

	/** The webhook path after /webhook/ or /webhook-test/ (NodeHelpers.getNodeWebhookPath). */
	get webhookPath(): string {
		return NodeHelpers.getNodeWebhookPath(this.workflowId, this.node, 'webhook', false, false);
	}

	get productionUrl(): string {
		return `${this.origin}/webhook/${this.webhookPath}`;
	}

	get testUrl(): string {
		return `${this.origin}/webhook-test/${this.webhookPath}`;
	}

	get isActive(): boolean {
		return this.active;
	}

	get isListeningForTest(): boolean {
		return this.testListening !== undefined;
	}

	/** Started executions' trigger output, oldest first. */
	get executions(): Array<{ kind: 'production' | 'test'; items: NonNullable<WebhookCallResult['items']> }> {
		return this.calls.flatMap((c) => (c.started && c.items ? [{ kind: c.kind, items: c.items }] : []));
	}

	/** Saves new node parameters, as editing and saving the workflow in n8n would. */
	setParameters(parameters: INodeParameters): void {
		this.node = this.buildNode(parameters);
	}

	/**
	 * Activating the workflow (ActiveWorkflowManager.add -> addWebhooks; 2.x: the publication outbox's
	 * WorkflowTriggerActivator). `beforeSave` runs after the node's create and before n8n saves the activation's
	 * static data, with the webhook already served: n8n stores the webhook path before calling create, and 2.x
	 * saves static data only once every trigger of the workflow is registered, so a vendor that delivers as soon as
	 * its URL changed reaches a webhook whose workflow still has the static data from before the activation.
	 */
	async activate(
		activation: 'activate' | 'init' | 'update' = 'activate',
		{ beforeSave }: { beforeSave?: () => Promise<void> } = {},
	): Promise<void> {
		const workflow = this.workflow(this.savedStaticData);
		const webhook = this.webhookData(workflow, false);
		try {
			await createWebhookIfNotExists(workflow, webhook, 'trigger', activation, this.methodCalls);
		} catch (error) {
			// n8n removes what it registered when activation fails (clearWebhooks), then reports the error.
			await this.deactivate();
			throw error;
		}
		this.active = true;
		await beforeSave?.();
		this.persist(workflow);
	}

	/**
	 * n8n restarting: shutdown calls no webhook method and forgets test registrations (kept in process memory
	 * in regular mode, without calling delete); startup activates every active workflow with 'init'.
	 */
	async restart(): Promise<void> {
		this.testListening = undefined;
		if (!this.active) return;
		await this.activate('init');
	}

	/** Deactivating the workflow (ActiveWorkflowManager.remove -> clearWebhooks). */
	async deactivate(): Promise<void> {
		const workflow = this.workflow(this.savedStaticData);
		await runWebhookMethod('delete', workflow, this.webhookData(workflow, false), 'internal', 'update', this.methodCalls);
		this.active = false;
		this.persist(workflow);
	}

	/** "Listen for test event" (TestWebhooks.needsWebhook): fresh static data, never saved. */
	async listenForTestEvent(): Promise<void> {
		const workflow = this.workflow({});
		const webhook = this.webhookData(workflow, true);
		this.testListening = { staticData: workflow.staticData };
		try {
			await createWebhookIfNotExists(workflow, webhook, 'manual', 'manual', this.methodCalls);
		} catch (error) {
			await this.stopListening();
			throw error;
		}
		// n8n keeps the static data with the registration in its cache (serialised in scaling mode).
		this.testListening = { staticData: JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject };
	}

	/** Stopping test listening, or n8n doing so after the first test execution (TestWebhooks.deactivateWebhooks). */
	async stopListening(): Promise<void> {
		const listening = this.testListening;
		if (listening === undefined) return;
		const workflow = this.workflow({});
		workflow.staticData = listening.staticData;
		await runWebhookMethod('delete', workflow, this.webhookData(workflow, true), 'internal', 'update', this.methodCalls);
		this.testListening = undefined;
	}

	/**
	 * Resolves once the next webhook request has loaded its workflow (and with it the saved static data), before
	 * the node sees it: lets a test put n8n's other steps between a request's load and its save.
	 */
	async nextRequestLoaded(): Promise<void> {
		await new Promise<void>((resolve) => this.arrivalWaiters.push(resolve));
	}

	/** Resolves when every request received so far has been fully handled (incl. n8n's follow-up steps). */
	async idle(): Promise<void> {
		while (this.pending.size > 0) await Promise.all([...this.pending]);
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
		await this.idle();
	}

	private buildNode(parameters: INodeParameters): INode {
		const webhookId = this.options.webhookId === undefined ? 'a3d6c1f0-5b1e-4c55-9d51-7c2b0f4e8a11' : this.options.webhookId;
		const node: INode = {
			id: 'trigger-node-1',
			name: this.options.nodeName ?? 'Consignment Vendor Trigger',
			type: TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { consignmentVendorApi: this.options.credential },
			...(webhookId === null ? {} : { webhookId }),
		};
		const description = this.options.nodeTypes.getByNameAndVersion(TRIGGER_TYPE, 1).description;
		// As n8n does when it loads a workflow: defaults for every parameter not set.
		node.parameters =
			NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description) ?? {};
		return node;
	}

	private workflow(staticData: IDataObject): Workflow {
		return new Workflow({
			id: this.workflowId,
			name: 'Trigger harness workflow',
			nodes: [structuredClone(this.node)],
			connections: {},
			active: this.active,
			nodeTypes: this.options.nodeTypes,
			staticData: structuredClone(staticData),
			settings: {},
		});
	}

	private webhookData(workflow: Workflow, isTest: boolean): IWebhookData {
		return webhookDataFor(workflow, workflow.getNode(this.node.name) as INode, this.webhookPath, this.additionalData, isTest);
	}

	private persist(workflow: Workflow): void {
		const changed = takeChangedStaticData(workflow);
		if (changed === undefined) return;
		this.savedStaticData = changed as IDataObject;
		this.staticDataSaves++;
	}

	private onRequest(req: IncomingMessage, res: ServerResponse): void {
		const task = this.route(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500).end(JSON.stringify({ message: String(error) }));
		});
		const tracked = task.finally(() => this.pending.delete(tracked));
		this.pending.add(tracked);
	}

	private async route(rawReq: IncomingMessage, rawRes: ServerResponse): Promise<void> {
		const req = shimRequest(rawReq);
		const res = shimResponse(rawRes);
		const path = new URL(rawReq.url ?? '/', this.origin).pathname.replace(/\/+$/, '');
		const kind = path === `/webhook/${this.webhookPath}` && this.active
			? 'production'
			: path === `/webhook-test/${this.webhookPath}` && this.testListening
				? 'test'
				: undefined;
		if (kind === undefined || rawReq.method !== 'POST') {
			res.status(404).json({ code: 404, message: `The requested webhook "${rawReq.method} ${path}" is not registered.` });
			return;
		}

		// Production requests run on the saved workflow as loaded for this request; test requests on the
		// listening one (mode 'manual').
		const workflow = this.workflow(kind === 'production' ? this.savedStaticData : {});
		if (kind === 'test' && this.testListening) workflow.setTestStaticData(this.testListening.staticData);
		for (const loaded of this.arrivalWaiters.splice(0)) loaded();
		const node = workflow.getNode(this.node.name) as INode;
		const result = await handleWebhookCall({
			workflow,
			node,
			nodeType: this.options.nodeTypes.getByNameAndVersion(node.type, node.typeVersion),
			webhookData: this.webhookData(workflow, kind === 'test'),
			additionalData: this.additionalData,
			mode: kind === 'production' ? 'webhook' : 'manual',
			req,
			res,
		});
		// LiveWebhooks.executeWebhook saves the workflow's static data once the node answered without throwing
		// (1.x and 2.x, also on a queue-mode webhook processor): the whole object as this request loaded and
		// changed it, so the last of two overlapping requests wins.
		if (kind === 'production' && result.error === undefined) this.persist(workflow);
		this.calls.push({ kind, ...result });
		// n8n stops test listening once a test event started an execution (not for refused/ignored calls).
		if (kind === 'test' && result.started) await this.stopListening();
	}
}
