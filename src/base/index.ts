/**
 * What every other folder of src/ builds on: reading and checking what a user gives (coercion,
 * addresses, JSON, plain $json expressions) and the input errors that name a field; secrets
 * (derived tokens, redaction); byte streams; batches; a refused webhook request.
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
