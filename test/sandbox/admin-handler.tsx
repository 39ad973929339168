/** The /__sandbox requests: health, recording, reset, sample files, state, then admin routes. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readAdminJson, type AdminRouter } from './admin';
import { SAMPLE_FILES } from './files';
import { HttpError, queryFrom } from './http';
import { sendJson } from './respond';
import type { RecordedRequest } from './types';

export const ADMIN_PREFIX = '/__sandbox';

/** What the admin requests read and change of a running sandbox. */
export interface AdminHandlerDeps {
	/** The modules' admin routes (paths without the prefix). */
	admin: AdminRouter;
	requests: RecordedRequest[];
	clearRequests(): void;
	reset(): void;
	/** The URLs `GET /health` answers with; known once the server listens. */
	urls(): Record<string, string>;
	/** What `GET /state` answers. */
	state(): unknown;
}

export async function handleAdmin(
	req: IncomingMessage,
	res: ServerResponse,
	path: string,
	searchParams: URLSearchParams,
	deps: AdminHandlerDeps,
): Promise<void> {
	const { admin, requests } = deps;
	const route = `${req.method} ${path.replace(/\/$/, '')}`;
	if (route === `GET ${ADMIN_PREFIX}/health`)
		return sendJson(res, 200, { status: 'ok', ...deps.urls() });
	if (route === `GET ${ADMIN_PREFIX}/requests`) return sendJson(res, 200, requests);
	if (route === `DELETE ${ADMIN_PREFIX}/requests`) {
		const cleared = requests.length;
		deps.clearRequests();
		return sendJson(res, 200, { cleared });
	}
	if (route === `POST ${ADMIN_PREFIX}/reset`) {
		deps.reset();
		return sendJson(res, 200, { reset: true });
	}
	const file = route.startsWith(`GET ${ADMIN_PREFIX}/files/`)
		? route.slice(`GET ${ADMIN_PREFIX}/files/`.length)
		: '';
	const sample = Object.hasOwn(SAMPLE_FILES, file) ? SAMPLE_FILES[file] : undefined;
	if (sample) {
		res.writeHead(200, { 'content-type': sample.contentType });
		res.end(sample.body);
		return;
	}
	if (route === `GET ${ADMIN_PREFIX}/state`) return sendJson(res, 200, deps.state());
	const match = admin.match(req.method ?? 'GET', path.slice(ADMIN_PREFIX.length) || '/');
	if (match.kind !== 'found') {
		return sendJson(res, 404, {
			error: {
				status: 404,
				code: 'ROUTE_NOT_FOUND',
				message: `No such admin endpoint: ${route}`,
			},
		});
	}
	try {
		const answer = await match.handler({
			params: match.params,
			query: queryFrom(searchParams),
			json: () => readAdminJson(req),
		});
		sendJson(res, 200, answer ?? null);
	} catch (error) {
		const failure =
			error instanceof HttpError
				? error
				: new HttpError(
						500,
						'INTERNAL_ERROR',
						`Sandbox error: ${(error as Error)?.message ?? String(error)}`,
					);
		if (failure.status === 500) console.error('[sandbox] admin handler failed', error);
		sendJson(
			res,
			failure.status,
			{ error: { status: failure.status, code: failure.code, message: failure.message } },
			failure.headers,
		);
	}
}
