// GET /v1/consignments and /v1/consignments/{consignment_id}. Only the vendor user's token sees consignments: the
// non-vendor client gets an empty list and 404s. Numeric-looking ids are sent as JSON numbers.
import type { AuthContext } from '../auth';
import { fail, ok } from '../http';
import { paginate } from '../pagination';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import type { StoredConsignment } from '../types';

export function registerConsignmentRoutes(router: Router<AuthContext>, sandbox: Sandbox): void {
	const view = (c: StoredConsignment) => ({
		id: c.numericId ? Number(c.id) : c.id,
		status: c.status,
		created_at: c.created_at,
		updated_at: c.updated_at,
		consignment_items_count: sandbox.store.consignmentItemCount(c.id),
	});

	router.add('GET', '/v1/consignments', (ctx) => {
		const visible = ctx.auth.vendorUser ? sandbox.store.consignments : [];
		const { page, page_info } = paginate(visible, (c) => c.seq, sandbox.pageContext('GET /v1/consignments', ctx.query));
		return ok({ consignments: page.map(view), page_info });
	});

	router.add('GET', '/v1/consignments/:consignment_id', (ctx) => {
		const id = ctx.params.consignment_id;
		const consignment = ctx.auth.vendorUser ? sandbox.store.findConsignment(id) : undefined;
		if (!consignment) throw fail(404, `Consignment ${id} not found`);
		return ok({ consignment: view(consignment) });
	});
}
