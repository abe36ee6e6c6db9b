import type { IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** What an operation file exports: its entry in the selector, its parameters and what n8n runs. */
export interface Operation {
	option: INodePropertyOptions;
	fields: INodeProperties[];
	execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]>;
}

export interface Resource {
	name: string;
	displayName: string;
	/** What its operations do, in a few words: a part of the node's description (see nodeDescriptionOf). */
	summary: string;
	/** The Operation selector shown for this resource. */
	selector: INodeProperties;
	fields: INodeProperties[];
	executors: ReadonlyMap<string, Operation['execute']>;
}

/**
 * A resource from its ONE list of operations: the selector, the fields and the executors are derived from it, so an
 * operation is its own file plus one entry here, and none can be shown without being runnable. `sharedFields` come
 * after the operations' own (parameters several operations show, such as Preview Only).
 */
export function defineResource(
	{ name, displayName, defaultOperation, summary }: { name: string; displayName: string; defaultOperation: string; summary: string },
	operations: Operation[],
	sharedFields: INodeProperties[] = [],
): Resource {
	const values = operations.map(({ option }) => String(option.value));
	if (!values.includes(defaultOperation)) throw new Error(`${name}: the default operation ${defaultOperation} is not in its list`);
	return {
		name,
		displayName,
		summary,
		selector: {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [name] } },
			// n8n's lint and editor list options by name.
			options: operations.map(({ option }) => option).sort((a, b) => a.name.localeCompare(b.name)),
			default: defaultOperation,
		},
		fields: [...operations.flatMap((operation) => operation.fields), ...sharedFields],
		executors: new Map(operations.map((operation) => [String(operation.option.value), operation.execute])),
	};
}

/**
 * The node's description (the nodes panel, and what an AI agent reads about the tool) from its resources' summaries,
 * so it follows the registry: "Submit and update consignment items, manage addresses, … and configure the vendor webhook".
 */
export function nodeDescriptionOf(resources: readonly Resource[]): string {
	const parts = resources.map(({ summary }) => summary);
	const text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : (parts[0] ?? '');
	return text.charAt(0).toUpperCase() + text.slice(1);
}
