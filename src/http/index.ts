/**
 * HTTP: the one request helper (apiRequest) and what it uses: the run's pace and wait budget
 * (configureRun), the credential's base URLs, errors and outcomes, previews, resends, paging,
 * multipart bodies, answer schemas.
 */
export * from './api-request';
export * from './outside';
export * from './run';
export * from './endpoints';
export * from './errors';
export * from './outcomes';
export * from './preview';
export * from './pagination';
export * from './multipart';
export * from './responses';
