// Small helpers to write harness workflows: manual trigger -> items source -> the node(s) under test.
import type { IConnections, INode, INodeParameters } from 'n8n-workflow';

import type { HarnessCredential } from './credential-store';
import type { HarnessWorkflow } from './run-workflow';
import { ITEMS_SOURCE_TYPE, MANUAL_TRIGGER_TYPE } from './test-nodes';

export const TRIGGER_NODE_NAME = 'When clicking Execute workflow';
export const ITEMS_NODE_NAME = 'Items';

/** The node settings n8n keeps on INode (the "Settings" tab), e.g. `{ onError: 'continueRegularOutput' }`. */
export type NodeSettings = Pick<
	INode,
	| 'continueOnFail'
	| 'onError'
	| 'retryOnFail'
	| 'maxTries'
	| 'waitBetweenTries'
	| 'alwaysOutputData'
	| 'executeOnce'
	| 'disabled'
>;

export interface NodeSpec {
	/** Full node type, e.g. packageNodeType('consignmentVendor'). */
	type: string;
	/** Default: 'Node 1', 'Node 2', ... in chain order. */
	name?: string;
	/** Default 1. A versioned node type needs the version the test means. */
	typeVersion?: number;
	parameters?: INodeParameters;
	/** Attached as `credentials[credential.type] = { id, name }`, as n8n stores a node's credential. */
	credential?: HarnessCredential;
	settings?: NodeSettings;
}

/** One INode from a spec. */
export function buildNode(spec: NodeSpec, fallbackName: string, position: [number, number]): INode {
	const node: INode = {
		id: `node-${(spec.name ?? fallbackName).replace(/\W+/g, '-').toLowerCase()}`,
		name: spec.name ?? fallbackName,
		type: spec.type,
		typeVersion: spec.typeVersion ?? 1,
		position,
		parameters: spec.parameters ?? {},
		...spec.settings,
	};
	if (spec.credential) {
		node.credentials = { [spec.credential.type]: { id: spec.credential.id, name: spec.credential.name } };
	}
	return node;
}

/**
 * `When clicking Execute workflow` (harness manual trigger) -> `Items` (emits runWorkflow's inputItems)
 * -> chain[0] -> chain[1] -> ..., each connected main output 0 -> main input 0.
 */
export function buildWorkflow(...chain: NodeSpec[]): HarnessWorkflow {
	const nodes: INode[] = [
		buildNode({ type: MANUAL_TRIGGER_TYPE, name: TRIGGER_NODE_NAME }, TRIGGER_NODE_NAME, [0, 0]),
		buildNode({ type: ITEMS_SOURCE_TYPE, name: ITEMS_NODE_NAME }, ITEMS_NODE_NAME, [200, 0]),
		...chain.map((spec, index) => buildNode(spec, `Node ${index + 1}`, [400 + index * 200, 0])),
	];
	const names = new Set(nodes.map((node) => node.name));
	if (names.size !== nodes.length) throw new Error('buildWorkflow: node names must be unique');

	const connections: IConnections = {};
	for (let index = 0; index < nodes.length - 1; index++) {
		connections[nodes[index].name] = { main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] };
	}
	return { nodes, connections, settings: { executionOrder: 'v1' } };
}
