/** The subscriber lists and their subscribers, kept in memory. */
import { randomUUID } from 'node:crypto';
import { localDateTime } from './http';

export interface Column {
	name: string;
	type: string;
	defaultValue: unknown;
	indexed: boolean;
	required: boolean;
	unique: boolean;
	customConfiguration: unknown;
}

export interface ListSettings {
	name: string;
	columns: Column[];
	/** Column that matches rows to existing subscribers ('id' unless a CSV import named one). */
	key: string;
	autoId: boolean;
	usesAutoColumns: boolean;
	caseSensitive: boolean;
	usesGeneratedData: boolean;
	trackLastActivity: boolean;
}

/** The List resource of spec section 2, in the spec's field order. */
export interface ListData {
	id: number;
	name: string;
	columns: Column[];
	userName: string;
	size: number;
	key: string;
	autoId: boolean;
	usesAutoColumns: boolean;
	caseSensitive: boolean;
	usesGeneratedData: boolean;
	trackLastActivity: boolean;
	lastUpdated: string;
	createdAt: string;
	status: string;
	totalLines: number;
	percentProcessed: number;
}

export type SubscriberRecord = { id: string } & Record<string, unknown>;
export type Values = Map<string, unknown>;

export const USER_NAME = 'sandbox-user';

/**
 * Index key of a value. Sandbox choice (spec: not shown): unique columns compare values by their
 * string form, case-sensitively.
 */
export const indexKey = (value: unknown) =>
	typeof value === 'object' ? JSON.stringify(value) : String(value);

/** One list: its settings, subscribers (by id) and an index per unique column. */
export class SubscriberList {
	private readonly subscribers = new Map<string, Record<string, unknown>>();
	private readonly indexes = new Map<string, Map<string, string>>();
	private readonly createdAt = new Date();
	private lastUpdated = this.createdAt;

	constructor(
		readonly id: number,
		readonly settings: ListSettings,
	) {
		for (const column of this.uniqueColumns())
			if (column.name !== 'id') this.indexes.set(column.name, new Map());
	}

	get size(): number {
		return this.subscribers.size;
	}

	column(name: string): Column | undefined {
		return this.settings.columns.find((column) => column.name === name);
	}

	/** `id` is always unique: it is the subscriber's identity. */
	uniqueColumns(): Column[] {
		return this.settings.columns.filter((column) => column.unique || column.name === 'id');
	}

	/** Column names as rows must spell them (lowercased when the list is not case sensitive). */
	normalizeName(name: string): string {
		return this.settings.caseSensitive ? name : name.toLowerCase();
	}

	/** Id of the subscriber holding `value` in a unique column. */
	findBy(column: string, value: unknown): string | undefined {
		const key = indexKey(value);
		if (column === 'id') return this.subscribers.has(key) ? key : undefined;
		return this.indexes.get(column)?.get(key);
	}

	has(id: string): boolean {
		return this.subscribers.has(id);
	}

	newId(): string {
		return randomUUID();
	}

	insert(values: Values): string {
		const id = String(values.get('id'));
		const stored: Record<string, unknown> = { id };
		for (const [name, value] of values) if (name !== 'id') stored[name] = value;
		this.subscribers.set(id, stored);
		this.index(id, stored);
		return id;
	}

	update(id: string, values: Values): void {
		const stored = this.subscribers.get(id);
		if (!stored) throw new Error(`no subscriber ${id}`);
		this.unindex(stored);
		for (const [name, value] of values) if (name !== 'id') stored[name] = value;
		this.index(id, stored);
	}

	remove(id: string): boolean {
		const stored = this.subscribers.get(id);
		if (!stored) return false;
		this.unindex(stored);
		this.subscribers.delete(id);
		return true;
	}

	touch(): void {
		this.lastUpdated = new Date();
	}

	/** Every list column is present; columns without a value are null. */
	record(id: string): SubscriberRecord | undefined {
		const stored = this.subscribers.get(id);
		if (!stored) return undefined;
		const record: SubscriberRecord = { id };
		for (const column of this.settings.columns)
			if (column.name !== 'id') record[column.name] = stored[column.name] ?? null;
		return record;
	}

	records(): SubscriberRecord[] {
		return [...this.subscribers.keys()].map((id) => this.record(id) as SubscriberRecord);
	}

	toData(): ListData {
		const s = this.settings;
		return {
			id: this.id,
			name: s.name,
			columns: s.columns.map((column) => ({ ...column })),
			userName: USER_NAME,
			size: this.size,
			key: s.key,
			autoId: s.autoId,
			usesAutoColumns: s.usesAutoColumns,
			caseSensitive: s.caseSensitive,
			usesGeneratedData: s.usesGeneratedData,
			trackLastActivity: s.trackLastActivity,
			lastUpdated: localDateTime(this.lastUpdated),
			createdAt: localDateTime(this.createdAt),
			status: 'OK',
			totalLines: this.size,
			percentProcessed: 100,
		};
	}

	private index(id: string, stored: Record<string, unknown>): void {
		for (const [column, index] of this.indexes) {
			const value = stored[column];
			if (value !== undefined && value !== null) index.set(indexKey(value), id);
		}
	}

	private unindex(stored: Record<string, unknown>): void {
		for (const [column, index] of this.indexes) {
			const value = stored[column];
			if (value !== undefined && value !== null) index.delete(indexKey(value));
		}
	}
}

/** All lists; ids are increasing integers starting at 1. */
export class ListStore {
	private readonly lists = new Map<number, SubscriberList>();
	private nextId = 1;

	create(settings: ListSettings): SubscriberList {
		const list = new SubscriberList(this.nextId++, settings);
		this.lists.set(list.id, list);
		return list;
	}

	get(id: number): SubscriberList | undefined {
		return this.lists.get(id);
	}

	delete(id: number): boolean {
		return this.lists.delete(id);
	}

	all(): SubscriberList[] {
		return [...this.lists.values()];
	}

	reset(): void {
		this.lists.clear();
		this.nextId = 1;
	}
}
