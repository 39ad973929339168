/** HTTP: apiRequest, outsideRequest and what they use (run state, base URLs, errors, previews, paging, schemas). */
export * from './api-request';
export type { ApiRequest } from './attempt';
export { outsideRequest } from './outside';
export * from './run';
export * from './endpoints';
export * from './outcomes';
export * from './preview';
export * from './pagination';
export * from './multipart';
export * from './responses';
