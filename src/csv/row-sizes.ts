/** Each row's size in bytes (the header is row −1), 4 bytes a row. */
import { grown } from './row';

export class RowSizes {
	private sizes = new Uint32Array(1 << 16);
	private count = 0;
	private sum = 0;

	add(size: number): void {
		if (this.count === this.sizes.length) this.sizes = grown(this.sizes);
		this.sizes[this.count++] = size;
		this.sum += size;
	}

	total(): number {
		return this.sum;
	}

	totalOf(indexes: Set<number>): number {
		let sum = 0;
		for (const index of indexes) sum += this.sizes[index + 1] ?? 0;
		return sum;
	}
}
