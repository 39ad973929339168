/** HTTP: apiRequest and what it uses (run state, base URLs, errors, previews, paging, schemas). */
export * from './api-request';
export * from './run';
export * from './endpoints';
export * from './outcomes';
export * from './preview';
export * from './pagination';
export * from './multipart';
export * from './responses';
