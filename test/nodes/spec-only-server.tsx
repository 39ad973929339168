import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A second, deliberately different platform: it serves only the endpoints the interface spec
 * defines (no GET /lists listing, no admin routes), under other base paths than the sandbox,
 * with its own error shapes. Used to prove the nodes rely on the spec, not on sandbox choices.
 *
 * - unknown routes: `notFound` decides the body (`plain`: text "Not Found"; `json`: a JSON
 *   object with meta and a message, like many API gateways).
 * - GET /lists/{id}: the list 7 exists; any other id answers 404 `{ "errorMessage": "list <id> does
 *   not exist" }`.
 * - GET /v2/wallet/templates: one template, with pagination.
 * - GET /subscribers (blacklist lookup): 404 `{ "errorMessage": "recipient not blacklisted" }`.
 */
export interface SpecOnlyServer {
	url: string;
	listsBaseUrl: string;
	walletBaseUrl: string;
	baseUrl: string;
	requests: Array<{ method: string; path: string; authorization?: string }>;
	close(): Promise<void>;
}

export async function startSpecOnlyServer(options: {
	apiKey: string;
	notFound?: 'plain' | 'json';
}): Promise<SpecOnlyServer> {
	const requests: SpecOnlyServer['requests'] = [];
	const meta = () => ({ timestamp: Date.now(), transactionId: `tx-${requests.length}` });
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://spec-only');
		requests.push({
			method: req.method ?? 'GET',
			path: url.pathname,
			authorization: req.headers.authorization,
		});
		const json = (status: number, body: unknown) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		if (req.headers.authorization !== `Bearer ${options.apiKey}`)
			return json(401, { errorMessage: 'bad token' });
		const list = /^\/api\/lists-service\/v3\/lists\/(\d+)$/.exec(url.pathname);
		if (req.method === 'GET' && list) {
			if (list[1] === '7')
				return json(200, {
					meta: meta(),
					data: { id: 7, name: 'Seven', columns: [], size: 0, status: 'OK' },
				});
			return json(404, { meta: meta(), errorMessage: `list ${list[1]} does not exist` });
		}
		if (req.method === 'GET' && url.pathname === '/api/wallet-service/v2/wallet/templates') {
			return json(200, {
				meta: meta(),
				pagination: { limit: 1, page: 1, pages: 1, total: 1 },
				items: [{ serial: 'tpl-1', name: 'Card' }],
			});
		}
		if (req.method === 'GET' && url.pathname === '/api/messaging-service/subscribers') {
			return json(404, { meta: meta(), errorMessage: 'recipient not blacklisted' });
		}
		if (options.notFound === 'json')
			return json(404, { meta: meta(), message: 'Resource not found' });
		res.writeHead(404, { 'content-type': 'text/plain' });
		res.end('Not Found');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		listsBaseUrl: `${url}/api/lists-service/v3`,
		walletBaseUrl: `${url}/api/wallet-service`,
		baseUrl: `${url}/api/messaging-service`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
