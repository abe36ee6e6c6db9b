// What an AI agent reads about each operation when the node is its tool: n8n describes a tool node in "auto" mode as
// "<the operation's action> in Consignment Vendor" (NodeHelpers.getToolDescriptionForNode). Each must say what the
// operation does and the input it needs, or the agent cannot call it right.
import { NodeHelpers, type INode } from 'n8n-workflow';

import { ConsignmentVendor } from '../../nodes/ConsignmentVendor/ConsignmentVendor.node';

const nodeType = new ConsignmentVendor();

function toolDescription(resource: string, operation: string): string {
	const node: INode = {
		id: 'tool',
		name: 'Consignment Vendor',
		type: 'n8n-nodes-consignment-vendor.consignmentVendorTool',
		typeVersion: 1.1,
		position: [0, 0],
		parameters: { resource, operation, descriptionType: 'auto' },
	};
	return NodeHelpers.getToolDescriptionForNode(node, nodeType);
}

/** Each operation: words its tool description must contain (what it acts on, and the input it needs). */
const EXPECTED: Array<[string, string, string[]]> = [
	['item', 'create', ['Create items', 'consignment ID', '500']],
	['item', 'upsert', ['Create or update an item', 'vendor SKU']],
	['item', 'update', ['Update an item', 'item ID']],
	['item', 'getAll', ['Get many items', 'validation status', 'vendor SKU']],
	['item', 'getNonApproved', ['non approved items', 'status', 'quantity']],
	['address', 'create', ['Create a US address', 'name', 'street', 'city', 'state', 'ZIP', 'phone']],
	['address', 'update', ['Update an active address', 'address ID']],
	['address', 'delete', ['Delete an address', 'address ID']],
	['address', 'getAll', ['Get many addresses']],
	['vendor', 'get', ['vendor profile', 'webhook URL']],
	['vendor', 'update', ['webhook URL']],
	['consignment', 'get', ['Get a consignment', 'ID']],
	['consignment', 'getAll', ['Get many consignments']],
	['order', 'cancel', ['Cancel an order', 'platform SKU']],
];

describe('tool descriptions (the node used by an AI agent)', () => {
	it('the node is usable as a tool', () => {
		expect(nodeType.description.usableAsTool).toBe(true);
	});

	it.each(EXPECTED)('%s → %s says what it does and what it needs', (resource, operation, words) => {
		const description = toolDescription(resource, operation);
		expect(description).toMatch(/ in Consignment Vendor$/);
		for (const word of words) expect([word, description.includes(word)]).toEqual([word, true]);
	});

	it('every operation of every resource is covered, and no two read the same', () => {
		const operations = nodeType.description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options as Array<{ value: string }>).map((option) => `${property.displayOptions?.show?.resource?.[0] as string}.${option.value}`),
			);
		expect(operations.sort()).toEqual(EXPECTED.map(([resource, operation]) => `${resource}.${operation}`).sort());
		const descriptions = EXPECTED.map(([resource, operation]) => toolDescription(resource, operation));
		expect(new Set(descriptions).size).toBe(descriptions.length);
	});
});
