/** The platform's rules per service (request schemas and mappings), and the status callbacks. */
export * from './callbacks';
export * from './blacklist/schema';
export * from './blacklist/mapping';
export * from './chatapp/schema';
export { REPLY_BUTTONS_MAX, REPLY_TITLE_MAX } from './chatapp/message-parts';
export * from './chatapp/mapping';
export * from './chatapp/message';
export * from './lists/schema';
export * from './lists/mapping';
export * from './lists/subscribers';
export * from './wallet/schema';
export * from './wallet/mapping';
