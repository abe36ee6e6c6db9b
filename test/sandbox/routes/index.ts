// Every API route of the contract, on one router.
import type { AuthContext } from '../auth';
import { Router } from '../router';
import type { Sandbox } from '../sandbox';
import { registerTokenRoute } from './token';
import { registerVendorRoutes } from './vendor';

export function buildApiRouter(sandbox: Sandbox): Router<AuthContext> {
	const router = new Router<AuthContext>();
	registerTokenRoute(router, sandbox);
	registerVendorRoutes(router, sandbox);
	return router;
}
