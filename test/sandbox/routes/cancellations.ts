// POST /v1/cancellations {sku}: cancels the order with that platform sku (from an item_purchased event, or the
// seeded TRR-ORD-000001). Missing sku 400; unknown sku (a vendor_sku, say) 404; already cancelled 409;
// success 200 {sku, status: 'cancelled', cancelled_at}.
import type { AuthContext } from '../auth';
import { fail, jsonObjectBody, ok } from '../http';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import { requireVendorUser } from './vendor-only';

export function registerCancellationRoute(router: Router<AuthContext>, sandbox: Sandbox): void {
	router.add('POST', '/v1/cancellations', (ctx) => {
		requireVendorUser(ctx.auth);
		const { sku } = jsonObjectBody(ctx.body);
		if (sku === undefined || sku === null || sku === '') throw fail(400, 'sku is required');
		if (typeof sku !== 'string') throw fail(400, 'sku is invalid: must be a string');
		const order = sandbox.store.findOrder(sku);
		if (!order) throw fail(404, `No order with sku ${sku} (send the platform sku from the order webhook, not the vendor_sku)`);
		if (order.status === 'cancelled') throw fail(409, `Order ${sku} is already cancelled`);
		order.status = 'cancelled';
		order.cancelled_at = sandbox.clock.nowIso();
		return ok({ sku: order.sku, status: order.status, cancelled_at: order.cancelled_at });
	});
}
