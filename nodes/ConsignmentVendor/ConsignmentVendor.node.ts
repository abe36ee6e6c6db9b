/** Consignment Vendor: the action node. This file only wires the resources (resources/<resource>/index.ts). */
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { address } from './resources/address';
import { consignment } from './resources/consignment';
import { item, resourceMapping } from './resources/item';
import { PRICES_IN_DOLLARS_FROM } from './resources/item/helpers/itemFields';
import { ONLY_CHANGED_BY_DEFAULT_FROM } from './resources/item/upsert';
import { order } from './resources/order';
import { vendor } from './resources/vendorProfile';
import { listSearch } from './shared/listSearch';
import { requestOptionsField } from './shared/requestOptions';
import { SIMPLIFY_ON_BY_DEFAULT_FROM } from './shared/simplify';

/** The node's resources; each derives its selector, fields and executors from its one list of operations. */
export const RESOURCES = [item, address, consignment, order, vendor];

export class ConsignmentVendor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Consignment Vendor',
		name: 'consignmentVendor',
		icon: { light: 'file:consignmentVendor.svg', dark: 'file:consignmentVendor.dark.svg' },
		group: ['transform'],
		// 1.1: Simplify on the list operations, on by default (shared/simplify.ts), and the column mapper as the item
		// fields' only mapping choice (item/helpers/itemMapping.ts); version 1 nodes keep whole records and Field Mapping.
		// 1.2: Price Unit Dollars by default for new nodes (item/helpers/itemFields.ts).
		// 1.3: Create or Update's Only Send What Changed on by default for new nodes (item/upsert.ts).
		version: [1, SIMPLIFY_ON_BY_DEFAULT_FROM, PRICES_IN_DOLLARS_FROM, ONLY_CHANGED_BY_DEFAULT_FROM],
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Submit and update consignment items, manage addresses, read consignments, cancel orders and configure the vendor webhook',
		defaults: { name: 'Consignment Vendor' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'consignmentVendorApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: RESOURCES.map(({ displayName, name }) => ({ name: displayName, value: name })).sort((a, b) => a.name.localeCompare(b.name)),
				default: 'item',
			},
			...RESOURCES.map((resource) => resource.selector),
			...RESOURCES.flatMap((resource) => resource.fields),
			requestOptionsField,
		],
	};

	methods = { listSearch, resourceMapping };

	/**
	 * Routes to the operation's own `execute`, as Google Sheets v2 does. Not declarative: RoutingNode is not used for
	 * tools, could not batch creation, return a listing above ~120,000 records, build thousands of requests quickly,
	 * or send through the package's queue without a trick.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resource = this.getNodeParameter('resource', 0) as string;
		const operation = this.getNodeParameter('operation', 0) as string;
		const run = RESOURCES.find(({ name }) => name === resource)?.executors.get(operation);
		if (run === undefined) throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not known`);
		return await run.call(this);
	}
}
