/** Pacing: a run's gate and budget, the pacer learning from 429s, turns shared across workers. */
export * from './gate';
export * from './pacer';
export * from './shared-pacers';
export type { Clock } from './clock';
export * from './pace';
export * from './board';
export { TurnsUnavailable } from './turn-grant';
