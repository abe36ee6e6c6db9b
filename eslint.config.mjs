// The rule set of `@n8n/node-cli/eslint` (its strict `config`), rebuilt here from the packages it is made of,
// because @n8n/node-cli itself does not install from this project's registry (its AI SDK dependency pulls
// packages the registry lacks). Keep it in step with node-cli's dist/configs/eslint.js.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { globalIgnores } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importPlugin from 'eslint-plugin-import-x';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const communityNodesRecommended = n8nCommunityNodesPlugin.configs.recommended;

export default tseslint.config(
	globalIgnores(['dist', 'node_modules', 'coverage', '.e2e-work', '.dev', '**/*.js', '**/*.mjs']),
	{
		files: ['**/*.ts'],
		extends: [
			js.configs.recommended,
			tseslint.configs.recommended,
			communityNodesRecommended,
			importPlugin.configs['flat/recommended'],
		],
		rules: {
			'prefer-spread': 'off',
			'no-console': 'error',
		},
	},
	{
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		settings: {
			'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.test.json' })],
		},
	},
	{
		files: ['package.json'],
		extends: [communityNodesRecommended],
		rules: {
			...n8nNodesBase.configs.community.rules,
		},
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: {
				extraFileExtensions: ['.json'],
			},
		},
	},
	{
		files: ['./credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['./nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	// Not part of node-cli's config: the sandbox, harness, tests and bench are development tools that never ship.
	// They legitimately use process.env, timers and console (for the sandbox's one JSON line), so the
	// community-node restrictions meant for published code are relaxed for test/ and bench/ only.
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
);
