/** A message key's values in the sent history, and what became of its message. */

/**
 * What earlier runs did with a key: `new` (or released), `sent`, `unconfirmed` (maybe sent),
 * `claimed` (another run of this process has it: maybe in flight).
 */
export type SentBefore = 'new' | 'sent' | 'unconfirmed' | 'claimed';

/** A send's outcome: `sent`, `notSent` (refused or unsent: released), `unknown` (stays claimed). */
export type Settlement = 'sent' | 'notSent' | 'unknown';

const PREFIX = 'am1';
export const claimOf = (key: string) => `${PREFIX}c:${key}`;
export const attemptOf = (key: string) => `${PREFIX}a:${key}`;
export const confirmationOf = (key: string) => `${PREFIX}s:${key}`;
export const sentValuesOf = (key: string) => [claimOf(key), attemptOf(key), confirmationOf(key)];
/** What a run given Forget's label leaves: a later run given the same label forgets nothing. */
export const forgottenFor = (label: string) => `${PREFIX}f:${label}`;
