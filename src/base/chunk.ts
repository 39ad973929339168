/** Splits items into consecutive batches of at most `size`. */
export function chunk<T>(items: T[], size: number): T[][] {
	if (!Number.isInteger(size) || size < 1)
		throw new RangeError('batch size must be a whole number of at least 1');
	const batches: T[][] = [];
	for (let start = 0; start < items.length; start += size)
		batches.push(items.slice(start, start + size));
	return batches;
}
