// Links between the repository's documents (README, docs/, the READMEs of examples/, test/ and bench/): text moves
// between pages, and a link to a file or a heading that no longer exists sends the reader nowhere.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(__dirname, '..', '..');

function markdownFiles(directory: string): string[] {
	return readdirSync(directory).flatMap((name) => {
		const path = join(directory, name);
		if (name === 'node_modules' || name.startsWith('.')) return [];
		if (statSync(path).isDirectory()) return markdownFiles(path);
		return name.endsWith('.md') ? [path] : [];
	});
}

const DOCUMENTS = [
	join(root, 'README.md'),
	...['docs', 'examples', 'test', 'bench'].flatMap((folder) => markdownFiles(join(root, folder))),
];

/** The text outside fenced code blocks and inline code, where a `[x](y)` is not a link. */
function proseOf(markdown: string): string {
	return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const [, heading] of proseOf(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
		const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, '');
		const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

/** Every relative link of a document that points at a missing file or a missing heading. */
function brokenLinks(document: string): string[] {
	const markdown = readFileSync(document, 'utf8');
	const broken: string[] = [];
	for (const [, target] of proseOf(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
		if (/^[a-z]+:/i.test(target)) continue; // https:, mailto: — outside the repository
		const [path, anchor] = target.split('#');
		const file = path === '' ? document : resolve(dirname(document), decodeURIComponent(path));
		if (!existsSync(file)) {
			broken.push(`${target} (no such file)`);
			continue;
		}
		if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
			broken.push(`${target} (no such heading in ${relative(root, file)})`);
		}
	}
	return broken;
}

describe('links between the documents', () => {
	it('finds the documents, the README and the docs/ pages among them', () => {
		const names = DOCUMENTS.map((document) => relative(root, document));
		expect(names).toEqual(expect.arrayContaining(['README.md', 'docs/bulk-items.md', 'examples/README.md']));
	});

	it.each(DOCUMENTS.map((document) => [relative(root, document), document]))(
		'%s links only to files and headings that exist',
		(_name, document) => {
			expect(brokenLinks(document)).toEqual([]);
		},
	);

	// n8n's node panel opens these from the Docs link and the credential's help: a wrong anchor lands at the top.
	it('the codex files link to README headings that exist', () => {
		const codexFiles = ['ConsignmentVendor', 'ConsignmentVendorTrigger', 'ConsignmentVendorItemTrigger'].map((node) =>
			join(root, 'nodes', node, `${node}.node.json`),
		);
		const readmeAnchors = anchorsOf(readFileSync(join(root, 'README.md'), 'utf8'));
		const links = codexFiles.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/"url":\s*"([^"]+)"/g)].map(([, url]) => url));
		expect(links.length).toBeGreaterThan(3);
		const missing = links.map((url) => url.split('#')[1]).filter((anchor) => anchor !== undefined && anchor !== 'readme' && !readmeAnchors.has(anchor));
		expect(missing).toEqual([]);
	});

	it('tells a heading that exists from one that does not, as GitHub names them', () => {
		const anchors = anchorsOf("# Title\n## The credential's token\n## Lists (Get Many): pages\n## Tokens\n## Tokens\n```\n# not a heading\n```");
		expect([...anchors]).toEqual(['title', 'the-credentials-token', 'lists-get-many-pages', 'tokens', 'tokens-1']);
	});
});
