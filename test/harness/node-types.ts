// The INodeTypes a harness Workflow sees, named as n8n names them: a community package's node is
// `<package name>.<description.name>` (n8n's LoadNodesAndCredentials), e.g. `n8n-nodes-consignment-vendor.consignmentVendor`.
import { DirectoryLoader } from 'n8n-core';
import {
	NodeHelpers,
	type IDataObject,
	type INodeType,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';

import type { loadPackage } from './package-loader';
import { HarnessItemsSource, HarnessManualTrigger, ITEMS_SOURCE_TYPE, MANUAL_TRIGGER_TYPE } from './test-nodes';

type AnyNodeType = INodeType | IVersionedNodeType;
type LoadedPackage = Awaited<ReturnType<typeof loadPackage>>;

/** The npm package name (fixed by docs/design.md); n8n prefixes the package's node names with it. */
export const PACKAGE_NAME = 'n8n-nodes-consignment-vendor';

/** The full type name n8n gives a node of this package, e.g. packageNodeType('consignmentVendor'). */
export function packageNodeType(name: string): string {
	return `${PACKAGE_NAME}.${name}`;
}

const prepared = new WeakSet<AnyNodeType>();

/**
 * A node type passed in by a test gets what n8n's loader does to every declarative node it loads (the
 * "requestOptions" parameter RoutingNode reads), once per instance so reusing an instance is safe.
 */
function prepareAsLoaded(nodeType: AnyNodeType): AnyNodeType {
	if (prepared.has(nodeType)) return nodeType;
	prepared.add(nodeType);
	const versions = 'nodeVersions' in nodeType ? Object.values(nodeType.nodeVersions) : [nodeType];
	for (const version of versions) DirectoryLoader.applyDeclarativeNodeOptionParameters(version);
	return nodeType;
}

export class HarnessNodeTypes implements INodeTypes {
	private readonly byName = new Map<string, AnyNodeType>();

	private readonly loadProblems: string[];

	constructor(loadedPackage: LoadedPackage, extraNodeTypes: AnyNodeType[]) {
		if (loadedPackage.packageName !== PACKAGE_NAME) {
			throw new Error(`package.json names the package "${loadedPackage.packageName}", expected "${PACKAGE_NAME}"`);
		}
		this.byName.set(MANUAL_TRIGGER_TYPE, new HarnessManualTrigger());
		this.byName.set(ITEMS_SOURCE_TYPE, new HarnessItemsSource());
		for (const [name, { type }] of Object.entries(loadedPackage.nodeTypes)) {
			this.byName.set(packageNodeType(name), type);
		}
		// Passed-in types are treated as this package's nodes and replace a loaded one of the same name.
		for (const nodeType of extraNodeTypes) {
			this.byName.set(packageNodeType(nodeType.description.name), prepareAsLoaded(nodeType));
		}
		this.loadProblems = loadedPackage.problems;
	}

	getByName(nodeType: string): AnyNodeType {
		const found = this.byName.get(nodeType);
		if (found === undefined) {
			const problems = this.loadProblems.length > 0 ? ` Files that failed to load: ${this.loadProblems.join('; ')}` : '';
			throw new Error(
				`Harness has no node type "${nodeType}" (known: ${[...this.byName.keys()].join(', ')}).${problems}`,
			);
		}
		return found;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries([...this.byName.keys()].map((name) => [name, {}]));
	}
}
