// The points of n8n's verification checklist that live in package.json and the publish workflow
// (docs/publishing.md): a package that drifts from them would no longer be verifiable, while everything else passes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
	name: string;
	license: string;
	keywords: string[];
	repository: { url: string };
	files: string[];
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	n8n: { n8nNodesApiVersion: number; nodes: string[]; credentials: string[] };
};

describe('package.json as n8n verifies it', () => {
	it('is an MIT-licensed community package named n8n-nodes-…, with its GitHub repository', () => {
		expect(pkg.name).toMatch(/^n8n-nodes-/);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.license).toBe('MIT');
		expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
		expect(pkg.repository.url).toMatch(/github\.com\/.+\/.+\.git$/);
	});

	it('has no runtime dependencies, and n8n-workflow only as a peer', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(Object.keys(pkg.peerDependencies ?? {})).toEqual(['n8n-workflow']);
	});

	it('ships only dist/, and lists every node and credential it builds there', () => {
		expect(pkg.files).toEqual(['dist']);
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
		for (const built of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
			expect(built).toMatch(/^dist\/.+\.js$/);
			const source = join(root, built.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
			expect([built, existsSync(source)]).toEqual([built, true]);
		}
	});
});

describe('the publish workflow', () => {
	const workflow = readFileSync(join(root, '.github', 'workflows', 'publish.yml'), 'utf8');

	it('publishes with npm provenance on a version tag, with the OIDC token permission provenance needs', () => {
		expect(workflow).toMatch(/^\s+tags:\s*\n\s+- '\*\.\*\.\*'/m);
		expect(workflow).toMatch(/^\s+id-token: write$/m);
		expect(workflow).toMatch(/npm publish --provenance/);
	});

	it('runs CI (tests included) before it publishes', () => {
		expect(workflow).toMatch(/uses: \.\/\.github\/workflows\/ci\.yml/);
		expect(workflow).toMatch(/needs: checks/);
	});
});
