/** Consignment Vendor: the action node. This file only wires the resources (resources/<resource>/index.ts). */
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as address from './resources/address';
import * as consignment from './resources/consignment';
import * as item from './resources/item';
import * as order from './resources/order';
import * as vendor from './resources/vendor';
import { listSearch } from './shared/listSearch';
import { requestOptionsField } from './shared/requestOptions';
import { SIMPLIFY_ON_BY_DEFAULT_FROM } from './shared/simplify';

export class ConsignmentVendor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Consignment Vendor',
		name: 'consignmentVendor',
		icon: { light: 'file:consignmentVendor.svg', dark: 'file:consignmentVendor.dark.svg' },
		group: ['transform'],
		// 1.1: Simplify on the list operations, on by default (shared/simplify.ts); version 1 nodes keep whole records.
		version: [1, SIMPLIFY_ON_BY_DEFAULT_FROM],
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Submit and update consignment items, manage addresses, read consignments, cancel orders and configure the vendor webhook',
		defaults: { name: 'Consignment Vendor' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'consignmentVendorApi', required: true }],
		// Every request goes through the transport (its own base URL from the credential); requestDefaults is what
		// makes n8n add its Request Options (Batching, Proxy, Timeout, Ignore SSL Issues) to the node's settings.
		requestDefaults: {
			baseURL: '={{ String($credentials.baseUrl).replace(/\\/+$/, "") }}',
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
		},
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Address', value: 'address' },
					{ name: 'Consignment', value: 'consignment' },
					{ name: 'Item', value: 'item' },
					{ name: 'Order', value: 'order' },
					{ name: 'Vendor', value: 'vendor' },
				],
				default: 'item',
			},
			item.operations,
			address.operations,
			consignment.operations,
			order.operations,
			vendor.operations,
			...item.fields,
			...address.fields,
			...consignment.fields,
			...order.fields,
			...vendor.fields,
			requestOptionsField,
		],
	};

	methods = { listSearch, resourceMapping: item.resourceMapping };

	/**
	 * Every operation is a function of its own (resources/<resource>/<operation>.ts, run by shared/itemRunner.ts or,
	 * for Create and Upsert, their batching): n8n runs these instead of RoutingNode
	 * (WorkflowExecute.getCustomOperation, in n8n-core 1.122 used by n8n 1.123, and in 2.x). RoutingNode could not
	 * batch creation, return a listing above ~120,000 records, build thousands of requests quickly, or send
	 * through the package's queue without a trick; one mechanism for all is also one place to read.
	 */
	customOperations = {
		item: item.customOperations,
		address: address.customOperations,
		consignment: consignment.customOperations,
		order: order.customOperations,
		vendor: vendor.customOperations,
	};
}
