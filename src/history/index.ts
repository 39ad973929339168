/** History: what a node sent in earlier executions (Skip Messages Sent Before), in n8n's store. */
export * from './store';
export * from './sent-history';
export type { SentBefore, Settlement } from './values';
export { MAX_CLAIM_AHEAD } from './windows';
export { REMOVALS_PER_CALL } from './row';
