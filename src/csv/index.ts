/** CSV files: the header, reading and rewriting rows as they stream, the check and its repeats. */
export * from './header';
export * from './rewrite';
export * from './check';
export * from './check-types';
