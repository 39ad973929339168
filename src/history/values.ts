/**
 * What an earlier execution did with a message key: nothing (or it released the key), `sent` (the
 * platform accepted the message), or `unconfirmed` (it was being sent when its answer was lost or
 * n8n stopped: it may have been sent).
 */
export type SentBefore = 'new' | 'sent' | 'unconfirmed';

/**
 * What became of a message this run tried to send: `sent` (accepted), `notSent` (refused, or never
 * sent: the key is released for the next run), or `unknown` (its answer was lost: the key stays
 * claimed, unconfirmed).
 */
export type Settlement = 'sent' | 'notSent' | 'unknown';

/** The store's values of a key: its claim, its attempt and its confirmation. */
const PREFIX = 'am1';
export const claimOf = (key: string) => `${PREFIX}c:${key}`;
export const attemptOf = (key: string) => `${PREFIX}a:${key}`;
export const confirmationOf = (key: string) => `${PREFIX}s:${key}`;
/** The values of a key whose message was sent. */
export const sentValuesOf = (key: string) => [claimOf(key), attemptOf(key), confirmationOf(key)];
/** The value a run given Forget's label leaves: a later run given the same label forgets nothing. */
export const forgottenFor = (label: string) => `${PREFIX}f:${label}`;
