/**
 * Pacing: a run's gate and wait budget, the pacer that learns a rate from 429s, the platform's
 * seconds, and the turns a trigger's board hands out across workers.
 */
export * from './gate';
export * from './pace';
export * from './board';
export * from './shared-turns';
export { TurnsUnavailable } from './turn-grant';
