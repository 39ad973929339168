/**
 * The store a run's sent history lives in: a set of text values kept for one node across its
 * executions. In n8n it is the node's deduplication store (`this.helpers.checkProcessedAndRecord`
 * and its siblings, scope `node`): one database row per node holding the values' hashes, shared by
 * every process of the deployment, with no lock.
 */
export interface HistoryStore {
	/**
	 * Adds the values not yet held and says which were held before the call (n8n's
	 * checkProcessedAndRecord). When `bounded`, the oldest values beyond HISTORY_MAX_VALUES are then
	 * dropped (n8n's maxEntries).
	 */
	record(values: string[], bounded: boolean): Promise<{ processed: string[] }>;
	/** Drops the values (n8n's removeProcessed). */
	remove(values: string[]): Promise<void>;
	/** Drops every value (n8n's clearAllProcessedItems). */
	clear(): Promise<void>;
	/** How many values are held (n8n's getProcessedDataCount). */
	count(): Promise<number>;
}

/**
 * Most messages a node's history remembers: a message is remembered as long as its run and the runs
 * after it were given at most this many messages in all; past it, the messages given first are
 * forgotten first.
 */
const HISTORY_MESSAGES = 100_000;

/**
 * Values a message may hold in the store (its claim, its attempt and its confirmation: see
 * SentHistory), so the bound in values is this many times HISTORY_MESSAGES.
 */
const VALUES_PER_MESSAGE = 3;

/** The store's bound in values: n8n drops the oldest values beyond it on each record. */
export const HISTORY_MAX_VALUES = HISTORY_MESSAGES * VALUES_PER_MESSAGE;
