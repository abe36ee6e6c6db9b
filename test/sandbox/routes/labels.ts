// GET /labels/{sku}.pdf: the shipping label of a purchased order, which item_purchased events point at in
// `pdf_url`. No authentication (like a pre-signed download link: the label URL arrives in the webhook and a
// client must not send its bearer token to it). 200 application/pdf for any recorded order (purchased or
// cancelled); 404 {error} for a sku without an order, or a name that does not end in `.pdf`.
import type { AuthContext } from '../auth';
import { fail } from '../http';
import { shippingLabelPdf } from '../label-pdf';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';

export const LABELS_PATH = '/labels';

export function registerLabelRoute(router: Router<AuthContext>, sandbox: Sandbox): void {
	router.add(
		'GET',
		`${LABELS_PATH}/:file`,
		(ctx) => {
			const match = /^(.+)\.pdf$/.exec(ctx.params.file);
			const order = match ? sandbox.store.findOrder(match[1]) : undefined;
			if (!order) throw fail(404, `No shipping label ${ctx.params.file} (labels exist for purchased orders: /labels/<platform sku>.pdf)`);
			return { status: 200, body: shippingLabelPdf(order), headers: { 'Content-Type': 'application/pdf' } };
		},
		false,
	);
}
