// n8n's own lint for community nodes (`n8n-node lint`, from @n8n/node-cli): ESLint recommended,
// typescript-eslint, @n8n/eslint-plugin-community-nodes (the rules n8n Cloud verification applies)
// and eslint-plugin-n8n-nodes-base's community, credentials and nodes rulesets. Scoped to what is
// shipped (nodes/, credentials/, src/, package.json): the tests and scripts run on Node with the
// development tools (node: modules, console) and are type-checked by `npm run typecheck`.
// Not n8n's "strict mode", which requires this file unchanged and so lints the tests with the
// shipped-code rules too.
import { globalIgnores } from 'eslint/config';
import { config } from '@n8n/node-cli/eslint';

export default [globalIgnores(['dist/**', 'test/**', 'scripts/**', 'demo/**', 'docs/**', 'jest.config.js', '.demo/**', 'coverage/**']), ...config];
