/**
 * Consignment Vendor: the declarative action node. This file only wires: request defaults, the resource
 * selector, each resource's operation selector and fields (resources/<resource>/index.ts), the searchable
 * lists of the resource locators, the columns of the item fields' column mapper, and the custom operations (item
 * creation and upsert, the list operations).
 */
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { addressCustomOperations, addressFields, addressOperationSelector } from './resources/address';
import { consignmentCustomOperations, consignmentFields, consignmentOperationSelector } from './resources/consignment';
import { itemCustomOperations, itemFields, itemOperations, itemResourceMapping } from './resources/item';
import { orderFields, orderOperationSelector } from './resources/order';
import { vendorFields, vendorOperationSelector } from './resources/vendor';
import { listSearch } from './shared/listSearch';
import { requestOptionsField } from './shared/requestOptions';
import { SIMPLIFY_ON_BY_DEFAULT_FROM } from './shared/simplify';

export class ConsignmentVendor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Consignment Vendor',
		name: 'consignmentVendor',
		icon: { light: 'file:consignmentVendor.svg', dark: 'file:consignmentVendor.dark.svg' },
		group: ['transform'],
		// 1.1: Simplify on the list operations, on by default (shared/simplify.ts), and the column mapper as the item
		// fields' only mapping choice (item/helpers/itemMapping.ts); version 1 nodes keep whole records and Field Mapping.
		version: [1, SIMPLIFY_ON_BY_DEFAULT_FROM],
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Submit and update consignment items, manage addresses, read consignments, cancel orders and configure the vendor webhook',
		defaults: { name: 'Consignment Vendor' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'consignmentVendorApi', required: true }],
		requestDefaults: {
			// The credential's Base URL is entered without /v1; every operation's path starts with /v1.
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
			itemOperations,
			addressOperationSelector,
			consignmentOperationSelector,
			orderOperationSelector,
			vendorOperationSelector,
			...itemFields,
			...addressFields,
			...consignmentFields,
			...orderFields,
			...vendorFields,
			requestOptionsField,
		],
	};

	methods = { listSearch, resourceMapping: itemResourceMapping };

	/**
	 * Item creation (batches of 500 per consignment, 207 mapped per item) and upsert cannot be one request per
	 * item, RoutingNode cannot return a listing above ~120,000 records (it spreads a paginator's records into
	 * one call), and item Update is sent by the thousand faster than RoutingNode builds requests (update.ts), so
	 * n8n runs these functions instead of RoutingNode for them (WorkflowExecute.getCustomOperation, present in
	 * n8n-core 1.122 used by n8n 1.123, and in 2.x). Every other operation stays declarative.
	 */
	customOperations = {
		item: itemCustomOperations,
		address: addressCustomOperations,
		consignment: consignmentCustomOperations,
	};
}
