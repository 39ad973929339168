/** The sandbox's public API: startSandbox, its types, and the constants tests assert against. */
export { startSandbox, DEFAULT_API_KEY, DEFAULT_CSV_MAX_BYTES } from './server';
export { ADMIN_PREFIX } from './admin-handler';
export type { Sandbox, SandboxOptions, RecordedRequest, RecordedPart } from './types';
export type { Fault, FaultKind } from './faults';
export type { Column, ListData, SubscriberRecord } from './list-store';
export type { SubscriberError, ImportResult } from './subscriber-import';
export type { ListInput } from './lists';
export { DEFAULT_TEMPLATES, TEMPLATE_FIELDS } from './wallet-templates';
export type { WalletTemplate, WalletTemplateInput, TemplateField } from './wallet-templates';
export { PASS_BATCH_MAX, PASS_PLACES } from './wallet-passes';
export type {
	PassError,
	PassErrorCode,
	PassField,
	PassPlace,
	PassResult,
	WalletPass,
} from './wallet-passes';
export { BLACKLIST_TYPES } from './blacklist';
export type {
	BlacklistEntry,
	BlacklistEntryData,
	BlacklistInput,
	BlacklistType,
} from './blacklist';
export { HttpError } from './http';
export { SandboxClock } from './clock';
export type { ClockState } from './clock';
export { DEFAULT_CHATAPP_SETTINGS } from './chatapp-settings';
export type { ChatappSettings } from './chatapp-settings';
export {
	DEFAULT_RATE_LIMIT,
	TIER_DAILY_QUOTAS,
	TOP_TIER_DAILY_QUOTA,
	SENDER_STATES,
} from './chatapp-senders';
export type { ApproveOptions, Sender, SenderInput, SenderState } from './chatapp-senders';
export {
	MESSAGE_TEMPLATE_BODY_MAX,
	MESSAGE_TEMPLATE_CATEGORIES,
	MESSAGE_TEMPLATE_STATUSES,
} from './chatapp-templates';
export type {
	MessageTemplate,
	MessageTemplateCategory,
	MessageTemplateInput,
} from './chatapp-templates';
export { MEDIA_EXTENSIONS, MESSAGE_LIMITS, MESSAGE_TYPES } from './chatapp-message-limits';
export type { MessageType } from './chatapp-message-limits';
export { CONVERSATION_WINDOW_MS } from './chatapp-messages';
export type { QuotaExceededMode } from './chatapp-messages';
export { DEFAULT_CALLBACK_STATUSES } from './chatapp-message-records';
export type {
	AcceptedStatus,
	ChatappMessage,
	InboundMessage,
	MessageAccepted,
} from './chatapp-message-records';
export { RATE_LIMIT_RETRY_AFTER_S } from './chatapp-message-errors';
export type { CallbackBody, CallbackDelivery, StatusEntry } from './callback-types';
export {
	MEDIA_CONTENT_TYPES,
	MEDIA_FETCH_MAX_BYTES,
	MEDIA_FETCH_MAX_REDIRECTS,
} from './chatapp-media';
export type { MediaFetch } from './chatapp-media';
export { RATE_LIMIT_WINDOWS, SLIDING_WINDOW_MS } from './rate-limit';
export type { RateLimitWindow } from './rate-limit';
