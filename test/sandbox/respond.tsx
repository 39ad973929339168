/** Writing an answer: a JSON body or a file, with its length, unless the response is gone. */
import type { ServerResponse } from 'node:http';

export function sendJson(
	res: ServerResponse,
	status: number,
	payload: unknown,
	headers: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	const text = JSON.stringify(payload);
	res.writeHead(status, {
		...headers,
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(text),
	});
	res.end(text);
}

export function sendFile(
	res: ServerResponse,
	status: number,
	file: { contentType: string; content: Buffer },
	headers: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(status, {
		...headers,
		'content-type': file.contentType,
		'content-length': file.content.length,
	});
	res.end(file.content);
}
