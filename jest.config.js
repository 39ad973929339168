/** One jest project per test layer; `npm test` runs them all, e2e last and in band. */
const base = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: { warnOnly: false } }] },
	modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/test/n8n-runtime/'],
};
module.exports = {
	projects: [
		{ ...base, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
		{ ...base, displayName: 'sandbox', roots: ['<rootDir>/test/sandbox'] },
		{ ...base, displayName: 'nodes', roots: ['<rootDir>/test/nodes'] },
		{ ...base, displayName: 'e2e', roots: ['<rootDir>/test/e2e'] },
	],
};
