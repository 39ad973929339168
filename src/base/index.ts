/** What the rest of src/ builds on: user input and its errors, secrets, byte streams, batches. */
export * from './chunk';
export * from './coerce';
export * from './expressions';
export * from './addresses';
export * from './json';
export * from './input-errors';
export * from './bytes';
