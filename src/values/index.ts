/**
 * Values: reading and checking what a user gives (coercion, addresses, JSON, plain $json
 * expressions), and the input errors that name a field.
 */
export * from './chunk';
export * from './coerce';
export * from './expressions';
export * from './addresses';
export * from './json';
export * from './input-errors';
export * from './bytes';
export * from './rejection';
export * from './secrets';
