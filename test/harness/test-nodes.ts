// The two test-only node types every harness workflow starts with.
import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type ITriggerFunctions,
	type ITriggerResponse,
} from 'n8n-workflow';

export const MANUAL_TRIGGER_TYPE = 'harness.manualTrigger';
export const ITEMS_SOURCE_TYPE = 'harness.itemsSource';

/**
 * Same behaviour as n8n-nodes-base.manualTrigger (packages/nodes-base/nodes/ManualTrigger/ManualTrigger.node.ts):
 * a trigger whose manualTriggerFunction emits one empty item. WorkflowExecute runs it through n8n-core's
 * TriggersAndPollers, as it runs the real one when you click "Execute workflow".
 */
export class HarnessManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger (harness)',
		name: 'manualTrigger',
		group: ['trigger', 'input'],
		version: 1,
		description: 'Starts the workflow on "Execute workflow", like n8n\'s Manual Trigger',
		maxNodes: 1,
		defaults: { name: 'When clicking Execute workflow' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}

/**
 * Emits the items of its `items` parameter (a JSON array of objects), each paired with the trigger's item,
 * like a Code node returning fixed data. runWorkflow({ inputItems }) fills the parameter.
 */
export class HarnessItemsSource implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Items Source (harness)',
		name: 'itemsSource',
		group: ['transform'],
		version: 1,
		description: 'Outputs fixed items',
		defaults: { name: 'Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items (JSON)', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
		if (!Array.isArray(items) || items.some((item) => typeof item !== 'object' || item === null)) {
			throw new NodeOperationError(this.getNode(), 'The "items" parameter must be a JSON array of objects');
		}
		return [(items as IDataObject[]).map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}
