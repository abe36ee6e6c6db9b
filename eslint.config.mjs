// n8n's own lint config for community nodes (the one `npm create @n8n/node` projects use), plus what this
// repository needs on top of it: ignores for generated folders, and relaxations for code that never ships.
import { config } from '@n8n/node-cli/eslint';
import { globalIgnores } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default [
	...config,
	globalIgnores(['node_modules', 'coverage', '.e2e-work', '.dev', '.ci-results', '**/*.js', '**/*.mjs']),
	// node-cli resolves imports through tsconfig.json, which covers only the shipped code; tsconfig.test.json also
	// covers test/ and bench/, so imports there resolve too.
	{
		settings: {
			'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.test.json' })],
		},
	},
	// The sandbox, harness, tests and bench are development tools that never ship. They legitimately use
	// process.env, timers and console (for the sandbox's one JSON line), so the community-node restrictions meant
	// for published code are relaxed for test/ and bench/ only.
	{
		files: ['test/**/*.ts', 'bench/**/*.ts'],
		rules: {
			'no-console': 'off',
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-restricted-imports': 'off',
			// The e2e suite, the sandbox CLI test and `npm run dev` start child processes (n8n, the sandbox) by design.
			'@n8n/community-nodes/no-dangerous-functions': 'off',
			// Test infrastructure throws plain errors (there is no node to attach them to), uses fixed throwaway
			// credentials for local sandboxes and n8n instances, and defines test-only nodes no agent ever sees.
			'@n8n/community-nodes/require-node-api-error': 'off',
			'@n8n/community-nodes/no-hardcoded-secrets': 'off',
			'@n8n/community-nodes/node-usable-as-tool': 'off',
			'import-x/no-named-as-default-member': 'off',
		},
	},
];
