/**
 * CSV files: the header, reading rows as they stream in and rewriting them, the row-by-row check
 * and its repeats.
 */
export * from './header';
export * from './rows';
export * from './rewrite';
export * from './check';
export * from './check-types';
