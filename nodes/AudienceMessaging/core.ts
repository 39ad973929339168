/**
 * The core library (src/) as this node's files use it, from one place: a resource imports
 * '../../core' instead of paths four folders deep. Only this node imports it; the trigger and the
 * credential import their few src modules directly, so their bundles stay small. (A tsconfig path
 * alias would read better, but n8n's cloud lint refuses any import that is not relative:
 * @n8n/community-nodes/no-restricted-imports.)
 */
export * from '../../src/batching';
export * from '../../src/callbacks';
export * from '../../src/coerce';
export * from '../../src/csv';
export * from '../../src/csv-check';
export * from '../../src/csv-rows';
export * from '../../src/endpoints';
export * from '../../src/errors';
export * from '../../src/expressions';
export * from '../../src/mapping/addresses';
export * from '../../src/mapping/blacklist';
export * from '../../src/mapping/chatapp';
export * from '../../src/mapping/json';
export * from '../../src/mapping/lists';
export * from '../../src/mapping/subscribers';
export * from '../../src/mapping/wallet';
export * from '../../src/multipart';
export * from '../../src/outcomes';
export * from '../../src/pace-board';
export * from '../../src/pacing';
export * from '../../src/pagination';
export * from '../../src/preview';
export * from '../../src/schemas/blacklist';
export * from '../../src/schemas/chatapp';
export * from '../../src/schemas/lists';
export * from '../../src/schemas/responses';
export * from '../../src/schemas/wallet';
export * from '../../src/shared-turns';
export * from '../../src/transport';
