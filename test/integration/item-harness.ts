// Shared by the item integration suites: the item parameters read from each input item, a valid input row and its
// body, and `ItemSuite`, which runs the node's item operations with one credential store per test.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CredentialStore, sandboxCredential, type NodeSettings, type RunResult } from '../harness';
import type { RequestLogEntry, RunningSandbox, SandboxStateSnapshot } from '../sandbox';
import { isTokenExchange, runPackageNode, useSandbox } from './nodeRun.helpers';

export { ITEM_PARAMETERS_FROM_JSON, contractColumnsRow, itemWriteParameters, validItem, validItemBody } from './item-input';

export class ItemSuite {
	store!: CredentialStore;

	private sandboxOf!: () => RunningSandbox;

	get sandbox(): RunningSandbox {
		return this.sandboxOf();
	}

	/** Registers the sandbox and credential-store hooks for one test file. */
	install(): this {
		this.sandboxOf = useSandbox();
		// One store per test: the token a run stored is the one the test's next run starts with.
		beforeEach(() => {
			this.store = new CredentialStore([sandboxCredential(this.sandbox)]);
		});
		return this;
	}

	/** Runs a version-1 node once with `parameters` (resource 'item' added) over `inputItems`. */
	async run(parameters: INodeParameters, inputItems: IDataObject[], settings?: NodeSettings): Promise<RunResult> {
		return await this.runAt(1, parameters, inputItems, settings);
	}

	/** `run`, with a node of `typeVersion`. */
	async runAt(typeVersion: number, parameters: INodeParameters, inputItems: IDataObject[], settings?: NodeSettings): Promise<RunResult> {
		return await runPackageNode(this.store, { resource: 'item', ...parameters }, inputItems, settings, typeVersion);
	}

	/** The sandbox's stored item with this vendor_sku; throws when there is none. */
	async storedItem(sku: string): Promise<SandboxStateSnapshot['items'][number]> {
		const item = (await this.sandbox.admin.state()).items.find((candidate) => candidate.vendor_sku === sku);
		if (!item) throw new Error(`the sandbox has no item ${sku}`);
		return item;
	}

	/** API requests the sandbox logged (token exchanges left out). */
	async apiRequests(): Promise<RequestLogEntry[]> {
		return (await this.sandbox.admin.requests()).filter((request) => !isTokenExchange(request));
	}
}

export const CONTINUE_ON_FAIL: NodeSettings = { onError: 'continueRegularOutput' };
