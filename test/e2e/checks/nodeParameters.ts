// Whether an example's third-party node (Shopify, HTTP Request…) has parameters the n8n version under test accepts,
// judged by that version's own code: its node description and n8n-workflow's NodeHelpers, as the editor judges them.
// For nodes the suite cannot run (a Shopify store is not reachable from CI).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { EXAMPLES_DIR } from '../lib/templates';
import type { N8nInstance } from '../lib/n8n-cli';

interface Property {
	name: string;
	type: string;
	options?: Array<{ value?: unknown; name: string }>;
}

interface Description {
	properties: Property[];
	credentials?: Array<{ name: string }>;
}

interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}

/** The node class file of an n8n-nodes-base type, e.g. n8n-nodes-base.httpRequest → nodes/HttpRequest/HttpRequest.node.js. */
const NODE_FILES: Record<string, string> = {
	'n8n-nodes-base.shopify': 'nodes/Shopify/Shopify.node.js',
	'n8n-nodes-base.httpRequest': 'nodes/HttpRequest/HttpRequest.node.js',
	'n8n-nodes-base.set': 'nodes/Set/Set.node.js',
	'n8n-nodes-base.code': 'nodes/Code/Code.node.js',
	'n8n-nodes-base.scheduleTrigger': 'nodes/Schedule/ScheduleTrigger.node.js',
};

function descriptionOf(require: NodeRequire, type: string, typeVersion: number): Description {
	const file = NODE_FILES[type];
	if (!file) throw new Error(`no node file known for ${type}`);
	const exported = require(`n8n-nodes-base/dist/${file}`) as Record<string, new () => unknown>;
	const instance = new (Object.values(exported)[0])() as { description?: Description & { version?: number | number[] }; nodeVersions?: Record<string, { description: Description }> };
	if (instance.nodeVersions) {
		const versioned = instance.nodeVersions[String(typeVersion)];
		if (!versioned) throw new Error(`${type} has no version ${typeVersion} (it has ${Object.keys(instance.nodeVersions).join(', ')})`);
		return versioned.description;
	}
	const versions = [instance.description?.version].flat();
	if (!versions.includes(typeVersion)) throw new Error(`${type} has no version ${typeVersion} (it has ${versions.join(', ')})`);
	return instance.description!;
}

/**
 * What is wrong with the parameters of `node` in example `example` for n8n `instance`: parameters the version does
 * not know or would not show with these values, option values it does not offer, and the issues it reports
 * (a required parameter left empty). An empty list when the editor would take them as they are.
 */
export function exampleNodeProblems(instance: N8nInstance, example: string, nodeName: string): string[] {
	const workflow = JSON.parse(readFileSync(join(EXAMPLES_DIR, `${example}.json`), 'utf8')) as { nodes: ExampleNode[] };
	const node = workflow.nodes.find((candidate) => candidate.name === nodeName);
	if (!node) return [`example ${example} has no node "${nodeName}"`];
	const require = createRequire(join(dirname(instance.n8nBin), '..', 'package.json'));
	const { NodeHelpers } = require('n8n-workflow') as {
		NodeHelpers: {
			getNodeParameters(properties: Property[], values: Record<string, unknown>, returnDefaults: boolean, returnNoneDisplayed: boolean, node: unknown, description: unknown): Record<string, unknown> | null;
			getNodeParametersIssues(properties: Property[], node: unknown, description: unknown): { parameters?: Record<string, string[]> } | null;
			displayParameter(values: Record<string, unknown>, property: Property, node: unknown, description: unknown): boolean;
		};
	};
	const description = descriptionOf(require, node.type, node.typeVersion);
	const inode = { ...node, id: 'check', position: [0, 0] };
	const problems: string[] = [];
	const shown = NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, inode, description) ?? {};
	for (const name of Object.keys(node.parameters)) {
		if (!(name in shown)) problems.push(`parameter "${name}" is unknown to, or not shown by, ${node.type} v${node.typeVersion}`);
	}
	for (const property of description.properties) {
		const value = node.parameters[property.name];
		if (property.type !== 'options' || typeof value !== 'string' || value.startsWith('=')) continue;
		// Several properties may share a name, each shown for other values of the others: judge the one shown.
		if (!NodeHelpers.displayParameter(shown, property, inode, description)) continue;
		if (!property.options?.some((option) => option.value === value)) problems.push(`parameter "${property.name}" = "${value}" is not one of its options`);
	}
	for (const [name, issues] of Object.entries(NodeHelpers.getNodeParametersIssues(description.properties, inode, description)?.parameters ?? {})) {
		problems.push(`parameter "${name}": ${issues.join('; ')}`);
	}
	// A credential the node asks for must be a type this version knows for it (picked by the user after import).
	const credentialType = node.parameters.nodeCredentialType;
	if (typeof credentialType === 'string') {
		try {
			require(`n8n-nodes-base/dist/credentials/${credentialType.charAt(0).toUpperCase()}${credentialType.slice(1)}.credentials.js`);
		} catch {
			problems.push(`credential type "${credentialType}" does not exist in this n8n`);
		}
	}
	return problems;
}
