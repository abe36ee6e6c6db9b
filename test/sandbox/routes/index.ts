// Every API route of the contract, on one router, plus the label downloads that item_purchased events link to.
import type { AuthContext } from '../auth';
import { Router } from '../router';
import type { Sandbox } from '../sandbox';
import { registerAddressRoutes } from './addresses';
import { registerCancellationRoute } from './cancellations';
import { registerConsignmentRoutes } from './consignments';
import { registerItemCreateRoute } from './items-create';
import { registerItemListRoutes } from './items-list';
import { registerItemUpdateRoute } from './items-update';
import { registerLabelRoute } from './labels';
import { registerTokenRoute } from './token';
import { registerVendorRoutes } from './vendor';

export function buildApiRouter(sandbox: Sandbox): Router<AuthContext> {
	const router = new Router<AuthContext>();
	registerTokenRoute(router, sandbox);
	registerVendorRoutes(router, sandbox);
	registerItemListRoutes(router, sandbox);
	registerItemCreateRoute(router, sandbox);
	registerItemUpdateRoute(router, sandbox);
	registerAddressRoutes(router, sandbox);
	registerConsignmentRoutes(router, sandbox);
	registerCancellationRoute(router, sandbox);
	registerLabelRoute(router, sandbox);
	return router;
}
