/** A node's sent-history store (n8n's dedup store, one row for all processes), and its bound. */
export interface HistoryStore {
	/** checkProcessedAndRecord: adds values, returns those held before; `bounded`: maxEntries. */
	record(values: string[], bounded: boolean): Promise<{ processed: string[] }>;
	/** Drops the values (n8n's removeProcessed). */
	remove(values: string[]): Promise<void>;
	/** Drops every value (n8n's clearAllProcessedItems). */
	clear(): Promise<void>;
	/** How many values are held (n8n's getProcessedDataCount). */
	count(): Promise<number>;
}

/** Most messages remembered over a run and the runs after it; past it, the first given go first. */
const HISTORY_MESSAGES = 100_000;

/** Values a message may hold in the store: claim, attempt, confirmation (see SentHistory). */
const VALUES_PER_MESSAGE = 3;

/** The store's bound in values: n8n drops the oldest values beyond it on each bounded record. */
export const HISTORY_MAX_VALUES = HISTORY_MESSAGES * VALUES_PER_MESSAGE;
