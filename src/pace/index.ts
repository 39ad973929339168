/** Pacing: a run's gate and budget, the pacer learning from 429s, turns shared across workers. */
export * from './gate';
export * from './pace';
export * from './board';
export * from './shared-turns';
export { TurnsUnavailable } from './turn-grant';
