// The placeholder node and node types n8n's cli CredentialsHelper evaluates credential expressions with when
// no workflow is at hand (packages/cli/src/credentials-helper.ts, `mockNode` / createMockNodeTypes).
import { NodeHelpers, type INode, type INodeType, type INodeTypes } from 'n8n-workflow';

export const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

const mockType = { description: { properties: [] } } as unknown as INodeType;

export const mockNodeTypes: INodeTypes = {
	getKnownTypes: () => ({}),
	getByName: () => mockType,
	getByNameAndVersion: (_type: string, version?: number) => NodeHelpers.getVersionedNodeType(mockType, version),
};
