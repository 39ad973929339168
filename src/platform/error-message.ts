/** platformMessage: the human message in a platform error body. */
const MESSAGE_KEYS = [
	'message',
	'errorMessage',
	'detail',
	'error_description',
	'title',
	'description',
	'reason',
];

/** The error body's shape is unspecified: the first message in `error`, `errors[0]`, the top. */
export function platformMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim() ? body.trim().slice(0, 500) : undefined;
	if (!body || typeof body !== 'object') return undefined;
	const record = body as Record<string, unknown>;
	const candidates: unknown[] = [
		record.error,
		Array.isArray(record.errors) ? record.errors[0] : undefined,
		record,
	];
	for (const candidate of candidates) {
		if (typeof candidate === 'string' && candidate.trim()) return candidate;
		if (candidate && typeof candidate === 'object') {
			for (const key of MESSAGE_KEYS) {
				const value = (candidate as Record<string, unknown>)[key];
				if (typeof value === 'string' && value.trim()) return value;
			}
		}
	}
	return undefined;
}
