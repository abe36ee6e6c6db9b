// Matches `METHOD /path/:param` patterns. Unknown paths answer 404 and known paths with another method 405,
// both with the contract's `{error}` body.
import { fail, type ApiResponse, type ParsedBody } from './http';

export interface RouteContext<Auth = unknown> {
	method: string;
	path: string;
	params: Record<string, string>;
	query: Record<string, string>;
	body: ParsedBody;
	headers: Record<string, string | string[] | undefined>;
	/** Set by the server for routes that require a bearer token. */
	auth: Auth;
}

export type Handler<Auth = unknown> = (ctx: RouteContext<Auth>) => ApiResponse | Promise<ApiResponse>;

interface Route<Auth> {
	method: string;
	regex: RegExp;
	names: string[];
	handler: Handler<Auth>;
	requiresAuth: boolean;
}

export interface RouteMatch<Auth> {
	handler: Handler<Auth>;
	params: Record<string, string>;
	requiresAuth: boolean;
}

export class Router<Auth = unknown> {
	private readonly routes: Array<Route<Auth>> = [];

	add(method: string, pattern: string, handler: Handler<Auth>, requiresAuth = true): this {
		const names: string[] = [];
		const source = pattern
			.split('/')
			.map((seg) => {
				if (!seg.startsWith(':')) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
				names.push(seg.slice(1));
				return '([^/]+)';
			})
			.join('/');
		this.routes.push({ method, regex: new RegExp(`^${source}/?$`), names, handler, requiresAuth });
		return this;
	}

	/** Throws 404/405 HttpErrors when nothing matches. */
	match(method: string, path: string): RouteMatch<Auth> {
		let pathMatched = false;
		for (const route of this.routes) {
			const m = route.regex.exec(path);
			if (!m) continue;
			pathMatched = true;
			if (route.method !== method) continue;
			const params: Record<string, string> = {};
			try {
				route.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1])));
			} catch {
				throw fail(404, `No route for ${method} ${path}`);
			}
			return { handler: route.handler, params, requiresAuth: route.requiresAuth };
		}
		if (pathMatched) throw fail(405, `Method ${method} is not allowed on ${path}`);
		throw fail(404, `No route for ${method} ${path}`);
	}
}
