/** A JSON array of copies of `event`, `bytes` long or a little more: a callback body of a size. */
export function eventsOf(event: Record<string, unknown>, bytes: number): Buffer {
	const one = JSON.stringify(event);
	return Buffer.from(
		`[${Array(Math.ceil(bytes / (one.length + 1)))
			.fill(one)
			.join(',')}]`,
	);
}
