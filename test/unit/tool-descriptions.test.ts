// What an AI agent reads about each operation when the node is its tool: n8n describes a tool node in "auto" mode as
// "<the operation's action> in Consignment Vendor" (NodeHelpers.getToolDescriptionForNode). Each must say what the
// operation does and the input it needs, or the agent cannot call it right.
import { NodeHelpers, type INode } from 'n8n-workflow';

import { ConsignmentVendor } from '../../nodes/ConsignmentVendor/ConsignmentVendor.node';
import { TOOL_DESCRIPTION_CASES } from './tool-description-cases';

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


describe('tool descriptions (the node used by an AI agent)', () => {
	it('the node is usable as a tool', () => {
		expect(nodeType.description.usableAsTool).toBe(true);
	});

	it.each(TOOL_DESCRIPTION_CASES)('%s → %s says what it does and what it needs', (resource, operation, words) => {
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
		expect(operations.sort()).toEqual(TOOL_DESCRIPTION_CASES.map(([resource, operation]) => `${resource}.${operation}`).sort());
		const descriptions = TOOL_DESCRIPTION_CASES.map(([resource, operation]) => toolDescription(resource, operation));
		expect(new Set(descriptions).size).toBe(descriptions.length);
	});
});
