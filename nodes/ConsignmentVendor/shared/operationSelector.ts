import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The Operation selector of one resource, from its operation files' `option`s. */
export function operationSelector(resource: string, options: INodePropertyOptions[], defaultOperation: string): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	};
}
