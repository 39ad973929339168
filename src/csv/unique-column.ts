/** The check of a CSV column whose values must not repeat: email, mobile, id, or the Key column. */
import { RepeatCandidates } from './confirm';
import type { ComparedColumn } from './confirm';
import { HASH, UniqueValues } from './repeats';
import type { CsvRow } from './row';
import { comparedValue, emailKey, KEY_IN_BYTES, mobileKey } from './value-keys';
import type { KeyInBytes } from './value-keys';

/** Checks each row's value and keeps it by hash (UniqueValues) for the repeats found later. */
export class UniqueColumn {
	private readonly seen = new UniqueValues();
	private readonly key?: (value: string) => string | { problem: string };
	private readonly inBytes: KeyInBytes;
	private candidates?: RepeatCandidates;

	constructor(
		readonly at: number,
		readonly name: string,
		kind: 'email' | 'mobile' | 'plain',
		private readonly required = false,
	) {
		this.key = kind === 'email' ? emailKey : kind === 'mobile' ? mobileKey : undefined;
		this.inBytes = KEY_IN_BYTES[kind];
	}

	/** Checks and keeps the row's value; returns its problem, if it has one. */
	check(row: CsvRow): string | undefined {
		const { at } = this;
		// Most values are read where they are written: no string is made for them.
		if (row.inText(at)) {
			const start = row.startOf(at);
			const end = row.endOf(at);
			if (start === end) return this.empty();
			const { bytes } = row;
			if (bytes[start] > 32 && bytes[end - 1] > 32 && this.inBytes(bytes, start, end)) {
				this.seen.addHash(HASH[0], HASH[1], row.index);
				return undefined;
			}
		}
		const key = comparedValue(row.field(at), this.key);
		if (key === '') return this.empty();
		if (typeof key !== 'string') return key.problem;
		this.seen.add(key, row.index);
		return undefined;
	}

	/** The problem of a row without a value: only the Key column must have one. */
	private empty(): string | undefined {
		return this.required ? 'the Key column is empty' : undefined;
	}

	/** Once every row is checked: the rows to compare (candidates and their first), if any. */
	compared(): ComparedColumn | undefined {
		this.seen.repeats((index, firstIndex) =>
			(this.candidates ??= new RepeatCandidates()).add(index, firstIndex),
		);
		if (!this.candidates) return undefined;
		return {
			at: this.at,
			value: (field) => {
				const value = comparedValue(field, this.key);
				return typeof value === 'string' && value ? value : undefined;
			},
			rows: this.candidates.sorted(),
		};
	}
}
