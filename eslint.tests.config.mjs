// Lint of the project's own code that is not shipped: tests, the sandbox, benchmarks and scripts
// (`npm run lint:tests`). They run on Node with the development tools, so the shipped-code rules of
// n8n's community-node lint (no node: modules, no console, no timers) do not apply to them;
// ESLint's and typescript-eslint's recommended rules do.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'test/n8n-runtime/node_modules/**',
			'.demo/**',
			'coverage/**',
			'test/artifacts/**',
		],
	},
	{
		files: [
			'test/**/*.tsx',
			'scripts/**/*.mjs',
			'scripts/**/*.cjs',
			'test/**/*.mjs',
			'jest.config.js',
			'eslint*.mjs',
		],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			// Answers of HTTP servers under test are read as JSON of any shape and asserted field by
			// field.
			'@typescript-eslint/no-explicit-any': 'off',
		},
	},
);
