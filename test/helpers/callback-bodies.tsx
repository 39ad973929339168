/**
 * A JSON array of copies of `event`, `bytes` long or a little more: a callback body of a size.
 * Numbered: each copy's `id` ends in its own number, so the trigger takes none for a repeat.
 */
export function eventsOf(event: Record<string, unknown>, bytes: number, numbered = false): Buffer {
	const copy = (i: number) =>
		JSON.stringify(
			numbered ? { ...event, id: `${String(event.id)}_${String(i).padStart(7, '0')}` } : event,
		);
	const count = Math.ceil(bytes / (copy(0).length + 1));
	return Buffer.from(`[${Array.from({ length: count }, (_, i) => copy(i)).join(',')}]`);
}
