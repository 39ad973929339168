/**
 * The one public address of a queue-mode n8n, as n8n's queue-mode docs set it up behind a load
 * balancer: production webhooks (and the waiting and form pages) go to the webhook process,
 * everything else (the editor, its REST API, `/rest/binary-data/signed` links) to the main
 * process. N8N_WEBHOOK_URL names this address, so the URLs nodes build reach the right process.
 * Each request is recorded with the process that answered it.
 */
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The paths of the webhook process (n8n's endpoints.webhook, webhookWaiting, form…). */
const WEBHOOK_PATHS = /^\/(webhook|webhook-waiting|form|form-waiting)(\/|$)/;

export interface FrontRequest {
	method: string;
	path: string;
	to: 'main' | 'webhook';
	status: number;
}

export interface FrontProxy {
	url: string;
	/** Where main and the webhook process listen (known once they started). */
	targets: { main?: string; webhook?: string };
	requests: FrontRequest[];
	close(): Promise<void>;
}

export async function startFrontProxy(): Promise<FrontProxy> {
	const targets: FrontProxy['targets'] = {};
	const requests: FrontRequest[] = [];
	const server: Server = createServer((incoming, answer) => {
		const path = incoming.url ?? '/';
		const to = WEBHOOK_PATHS.test(path) ? 'webhook' : 'main';
		const target = targets[to];
		if (!target) {
			answer.writeHead(502).end(`no ${to} process yet`);
			return;
		}
		const upstream = request(
			new URL(path, target),
			{ method: incoming.method, headers: incoming.headers },
			(response) => {
				requests.push({
					method: incoming.method ?? '',
					path,
					to,
					status: response.statusCode ?? 0,
				});
				answer.writeHead(response.statusCode ?? 502, response.headers);
				response.pipe(answer);
			},
		);
		upstream.on('error', (error) => {
			requests.push({ method: incoming.method ?? '', path, to, status: 502 });
			if (!answer.headersSent) answer.writeHead(502);
			answer.end(String(error));
		});
		incoming.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		targets,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
