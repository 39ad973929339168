/**
 * History: what a node sent in its earlier executions (Message › Send's Skip Messages Sent Before),
 * kept in n8n's own store for the node.
 */
export * from './store';
export * from './sent-history';
export type { SentBefore, Settlement } from './values';
export { MAX_CLAIM_AHEAD } from './windows';
export { REMOVALS_PER_CALL } from './row';
