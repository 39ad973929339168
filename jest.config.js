/** One jest project per test layer; `npm test` runs them all, e2e last and in band. */
const base = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: { warnOnly: false } }] },
	modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/test/n8n-runtime/'],
};
module.exports = {
	// A budget, not a measure: tests wait on events, and a busy 2-core CI machine can take many
	// times an idle one's seconds (a 64 MB stream through the sandbox, a node run of 1,000 items).
	testTimeout: 60_000,
	projects: [
		{ ...base, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
		{ ...base, displayName: 'sandbox', roots: ['<rootDir>/test/sandbox'] },
		{ ...base, displayName: 'nodes', roots: ['<rootDir>/test/nodes'] },
		{ ...base, displayName: 'e2e', roots: ['<rootDir>/test/e2e'] },
	],
};
