/** CSV files: the header, reading rows as they stream in, the row-by-row check and its repeats. */
export * from './header';
export * from './rows';
export * from './check';
