/** The shapes of status callbacks: pacing settings and defaults, posted body, attempt record. */

/** How status callbacks are paced and retried (real milliseconds, not the sandbox clock). */
export interface CallbackSettings {
	/**
	 * Pause between two events of one message to one URL, and between two status steps. Default 20.
	 */
	delayMs: number;
	/** Attempts per event and URL, the first included. Default 5. */
	maxAttempts: number;
	/** Pause before the first retry; doubles for each further retry. Default 200. */
	retryDelayMs: number;
	/** An attempt without an answer after this long fails (and is retried). Default 5000. */
	timeoutMs: number;
}

/** Sandbox choice (spec: not shown): how and how often callbacks are delivered and retried. */
export const DEFAULT_CALLBACK_SETTINGS: Readonly<CallbackSettings> = {
	delayMs: 20,
	maxAttempts: 5,
	retryDelayMs: 200,
	timeoutMs: 5000,
};

/**
 * Sandbox choice (spec: not shown): the payload (spec §6: not shown), one JSON body per status
 * event, unsigned.
 */
export interface CallbackBody {
	id: string;
	from: string;
	to: string;
	externalId: string | null;
	campaignId: null;
	/** The URL this body is posted to. */
	callback: string;
	/** When the message reached the status: ISO 8601 UTC with milliseconds and `Z`. */
	date: string;
	status: string;
}

/** One delivery attempt, as Sandbox.callbackDeliveries() and GET /__sandbox/callbacks list them. */
export interface CallbackDelivery {
	messageId: string;
	url: string;
	/** The event's message status. */
	status: string;
	/** 1 for the first try. */
	attempt: number;
	/** What the receiver answered; null when it could not be reached or did not answer in time. */
	httpStatus: number | null;
	/**
	 * Why the attempt failed (`HTTP 500`, `connect ECONNREFUSED ...`, `no answer within 5000 ms`).
	 */
	error?: string;
	ok: boolean;
	/** Sandbox-clock time of the attempt, ISO 8601 UTC. */
	at: string;
}

export interface StatusEntry {
	status: string;
	date: string;
}

export interface TrackedMessage {
	id: string;
	from: string;
	to: string;
	externalId: string | null;
	/** Distinct callback URLs; may be empty (the statuses still progress). */
	callbacks: string[];
}
