// Shared by the item integration suites: runs the real Consignment Vendor node (as n8n loads it from this
// package) through the harness against a sandbox, and reads what the sandbox logged.
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

export const NODE_NAME = 'Consignment Vendor';

/** Item parameters whose values come from each input item (`$json.<field>`), with valid defaults in `validItem`. */
export const ITEM_PARAMETERS_FROM_JSON: INodeParameters = {
	vendorSku: '={{ $json.sku }}',
	taxonPermalink: '={{ $json.taxon }}',
	upc: '={{ $json.upc ?? "" }}',
	designer: '={{ $json.designer }}',
	condition: '={{ $json.condition }}',
	withTags: '={{ $json.withTags }}',
	imageFront: '={{ $json.front }}',
	imageBack: '={{ $json.back }}',
	quantity: '={{ $json.quantity }}',
	priceUnit: 'cents',
	msrp: '={{ $json.msrp }}',
	price: '={{ $json.price }}',
	gender: '={{ $json.gender }}',
	taxonSpecificAttributes: '={{ $json.attributes }}',
	additionalFields: {},
};

/** One valid input row for the sandbox's catalog. */
export function validItem(sku: string, overrides: IDataObject = {}): IDataObject {
	return {
		sku,
		taxon: 'women/handbags/totes',
		designer: 'Chanel',
		condition: 'Excellent',
		withTags: true,
		front: `https://img.example.com/${sku}/front.jpg`,
		back: `https://img.example.com/${sku}/back.jpg`,
		quantity: 2,
		msrp: 250000,
		price: 129900,
		gender: ['Women'],
		attributes: { color: 'Black', material: ['Leather'] },
		...overrides,
	};
}

export class ItemSuite {
	sandbox!: RunningSandbox;

	store!: CredentialStore;

	/** Registers beforeAll/afterAll/beforeEach hooks for one test file. */
	install(): this {
		beforeAll(async () => {
			this.sandbox = await startSandbox({ port: 0 });
		});
		afterAll(async () => {
			await this.sandbox.close();
		});
		beforeEach(async () => {
			await this.sandbox.admin.reset();
			forgetSharedAccessTokens();
			this.store = new CredentialStore([sandboxCredential(this.sandbox)]);
		});
		return this;
	}

	/** Runs the node once with `parameters` (resource 'item' added) over `inputItems`. */
	async run(parameters: INodeParameters, inputItems: IDataObject[], settings?: NodeSettings): Promise<RunResult> {
		const workflow = buildWorkflow({
			type: packageNodeType('consignmentVendor'),
			name: NODE_NAME,
			parameters: { resource: 'item', ...parameters },
			credential: this.store.get('cred-1'),
			settings,
		});
		return await runWorkflow(workflow, { credentials: this.store, inputItems });
	}

	/** API requests the sandbox logged (token exchanges left out). */
	async apiRequests(): Promise<RequestLogEntry[]> {
		return (await this.sandbox.admin.requests()).filter((request) => !isTokenExchange(request.path));
	}
}

/** The credential's token exchange, `{authUrl}/api/v1/bearer-token`. */
export function isTokenExchange(path: string): boolean {
	return path.endsWith('/api/v1/bearer-token');
}

export function outputOf(result: RunResult): INodeExecutionData[] {
	return result.outputs[NODE_NAME]?.[0] ?? [];
}

export const CONTINUE_ON_FAIL: NodeSettings = { onError: 'continueRegularOutput' };
