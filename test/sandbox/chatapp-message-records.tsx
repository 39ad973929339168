/** A chat-app message as the sandbox keeps it: the status path, the answer, the stored record. */
import type { StatusEntry } from './callback-types';
import type { MessageType } from './chatapp-message-limits';
import type { MediaFetch } from './chatapp-media';

/**
 * Sandbox choice (spec: not shown): the status names and path (event kinds are not shown). The
 * normal status path; `callbackStatuses` may shorten it (e.g. stop at SENT: read receipts off).
 */
export const DEFAULT_CALLBACK_STATUSES = [
	'QUEUE',
	'DEQUEUED',
	'SENT',
	'DELIVERED',
	'READ',
] as const;

export type AcceptedStatus = 'QUEUE' | 'BLACKLISTED' | 'QUOTA_EXCEEDED';

/** What POST /chatapp/messages answers in `data`. */
export interface MessageAccepted {
	id: string;
	status: AcceptedStatus;
	from: string;
	to: string;
	type: MessageType;
	externalId?: string;
}

/** A stored message, as Sandbox.messages() returns it. */
export interface ChatappMessage {
	id: string;
	senderId: string;
	from: string;
	to: string;
	type: MessageType;
	externalId: string | null;
	callbacks: string[];
	/** The latest status in `history`. */
	status: string;
	history: StatusEntry[];
	/** Sandbox-clock time of acceptance, ISO 8601 UTC. */
	createdAt: string;
	/** The JSON body as received. */
	request: unknown;
	/**
	 * The fetch of a media message's URL (setting mediaFetch); null for other types, with the
	 * setting off, for a message not sent, and while the fetch is pending.
	 */
	media: MediaFetch | null;
}

/** A user message recorded by simulateInbound: it opens the 24-hour window. */
export interface InboundMessage {
	/** The user, E.164. */
	from: string;
	/** The sender address, digits. */
	to: string;
	date: string;
	windowExpiresAt: string;
}
