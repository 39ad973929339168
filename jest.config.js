/**
 * One jest project per test layer; `npm test` runs them all in one run, three files at once.
 * Test code is `.tsx` (TypeScript, no JSX): n8n's default lint config, which strict mode requires
 * unchanged, lints every `**\/*.ts` with the shipped-code rules; see docs/development.md.
 */
const base = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	transform: {
		'^.+\\.tsx?$': [
			'ts-jest',
			{ tsconfig: 'tsconfig.test.json', diagnostics: { warnOnly: false } },
		],
	},
	modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/test/n8n-runtime/'],
	// The few files that need the machine to themselves run alone (test/helpers/machine-share.tsx).
	setupFilesAfterEnv: ['<rootDir>/test/helpers/machine-share.tsx'],
};
module.exports = {
	// A budget, not a measure: tests wait on events, and a busy 2-core CI machine can take many
	// times an idle one's seconds (a 64 MB stream through the sandbox, a node run of 1,000 items).
	testTimeout: 60_000,
	// Three files at once on the 2-core CI machine (jest's default is one fewer than the cores):
	// end-to-end files spend much of their time waiting on n8n, the sandbox or a clock, and the
	// third file uses what they leave. test/helpers/machine-share.tsx keeps the browser test to one
	// file beside it and the few tests that need the machine alone.
	maxWorkers: 3,
	// The long end-to-end files first, then queue mode, the other end-to-end files, the browser.
	testSequencer: '<rootDir>/test/helpers/sequencer.js',
	projects: [
		{ ...base, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
		{ ...base, displayName: 'sandbox', roots: ['<rootDir>/test/sandbox'] },
		// Product tests: what they assert is the package's behaviour (the mutation run uses unit and
		// nodes).
		{
			...base,
			displayName: 'nodes',
			roots: ['<rootDir>/test/nodes'],
			testPathIgnorePatterns: ['/node_modules/', '/test/nodes/runner\\.test\\.tsx$'],
		},
		{
			...base,
			displayName: 'e2e',
			roots: ['<rootDir>/test/e2e'],
			testPathIgnorePatterns: ['/node_modules/', '/test/e2e/harness\\.test\\.tsx$'],
			// n8n installed and the package packed, installed and migrated once per run.
			globalSetup: '<rootDir>/test/e2e/global-setup.tsx',
			globalTeardown: '<rootDir>/test/e2e/global-teardown.tsx',
		},
		// The test harnesses' own tests (n8n-core runner, real-n8n harness), not counted as product
		// tests.
		{
			...base,
			displayName: 'harness',
			roots: ['<rootDir>/test/nodes', '<rootDir>/test/e2e'],
			testMatch: ['**/test/nodes/runner.test.tsx', '**/test/e2e/harness.test.tsx'],
		},
	],
};
