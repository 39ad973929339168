/** A small router: method and path patterns to handlers. */
import type { BodyReader } from './body';
import type { Query, Reply } from './http';
import type { RecordedRequest } from './types';

export interface RequestContext {
	method: string;
	path: string;
	params: Record<string, string>;
	query: Query;
	headers: Record<string, string>;
	body: BodyReader;
	record: RecordedRequest;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

interface Route<H> {
	method: string;
	segments: string[];
	handler: H;
}

export type RouteMatch<H = Handler> =
	| { kind: 'found'; handler: H; params: Record<string, string> }
	| { kind: 'method-not-allowed'; allowed: string[] }
	| { kind: 'not-found' };

/** A trailing slash is ignored so `/chatapp/templates/` and `/chatapp/templates` are one route. */
const split = (path: string) =>
	path.split('/').filter((segment, i, all) => i > 0 && (segment !== '' || i < all.length - 1));

const decode = (segment: string) => {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
};

/**
 * Minimal method + path router; `:name` segments become params. `H` is the handler type (API or
 * admin).
 */
export class Router<H = Handler> {
	private readonly routes: Route<H>[] = [];

	add(method: string, pattern: string, handler: H): this {
		this.routes.push({ method, segments: split(pattern), handler });
		return this;
	}

	match(method: string, path: string): RouteMatch<H> {
		const segments = split(path);
		const allowed: string[] = [];
		for (const route of this.routes) {
			const params = matchSegments(route.segments, segments);
			if (!params) continue;
			if (route.method === method) return { kind: 'found', handler: route.handler, params };
			allowed.push(route.method);
		}
		return allowed.length ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
	}
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
	if (pattern.length !== actual.length) return undefined;
	const params: Record<string, string> = {};
	for (let i = 0; i < pattern.length; i++) {
		if (pattern[i].startsWith(':')) params[pattern[i].slice(1)] = decode(actual[i]);
		else if (pattern[i] !== actual[i]) return undefined;
	}
	return params;
}
