// The shipped examples are what a new user opens first: a node of an older version shows that version's screen
// (version 1 of Consignment Vendor: a Field Mapping selector and a second mapping choice, each with a notice), not
// the one the README describes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { loadPackage } from '../harness/package-loader';

const EXAMPLES_DIR = join(__dirname, '..', '..', 'examples');
const PACKAGE_PREFIX = 'n8n-nodes-consignment-vendor.';

it("every example's node of this package is at the node's newest version, and none holds version 1's Field Mapping", async () => {
	const loaded = await loadPackage();
	const newest = (name: string) => {
		const { version } = loaded.nodeTypes[name].type.description as INodeTypeDescription;
		return Math.max(...(Array.isArray(version) ? version : [version]));
	};
	const nodes = readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.flatMap((file) => {
			const workflow = JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as { nodes: Array<{ name: string; type: string; typeVersion: number; parameters: Record<string, unknown> }> };
			return workflow.nodes.filter((node) => node.type.startsWith(PACKAGE_PREFIX)).map((node) => ({ file, ...node }));
		});
	expect(nodes.length).toBeGreaterThanOrEqual(6);
	const outdated = nodes
		.filter((node) => node.typeVersion !== newest(node.type.slice(PACKAGE_PREFIX.length)) || 'fieldMapping' in node.parameters)
		.map((node) => `${node.file}: ${node.name} (version ${node.typeVersion})`);
	expect(outdated).toEqual([]);
});
