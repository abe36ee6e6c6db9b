/** What every project shares. */
const shared = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	// The real-n8n suite is its own runner (npm run test:e2e): it installs n8n and takes minutes.
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', isolatedModules: true }],
	},
};

/**
 * The tests that run the node's zod schemas: item and address input validation, webhook payload parsing, the
 * vendor response. At runtime `zod` is n8n's own copy (3.25 today, maybe 4 later), so they run under both.
 */
const SCHEMA_TESTS = [
	'<rootDir>/test/unit/schemas-item.test.ts',
	'<rootDir>/test/unit/schemas-address.test.ts',
	'<rootDir>/test/unit/trigger-events.test.ts',
	'<rootDir>/test/unit/trigger-vendor-config.test.ts',
	'<rootDir>/test/unit/zod-version.test.ts',
];

/** @type {import('jest').Config} */
module.exports = {
	testTimeout: 30000,
	maxWorkers: 2,
	projects: [
		{
			...shared,
			displayName: 'zod 3',
			testMatch: ['**/*.test.ts'],
			globals: { EXPECTED_ZOD_MAJOR: 3 },
		},
		{
			...shared,
			displayName: 'zod 4',
			testMatch: SCHEMA_TESTS,
			// `zod` resolved to zod 4 (the devDependency alias zod4) for the node's schema modules and the tests alike.
			moduleNameMapper: { '^zod$': '<rootDir>/node_modules/zod4' },
			globals: { EXPECTED_ZOD_MAJOR: 4 },
		},
	],
};
