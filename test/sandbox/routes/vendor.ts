// GET/PATCH /v1/vendor. PATCH takes the contract's flat webhook_enabled/webhook_url and answers `{}`; the nested
// `communication_preferences` form of the public docs (and any other key) is refused so clients sending it notice.
import type { AuthContext } from '../auth';
import { fail, jsonObjectBody, ok } from '../http';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import { isHttpUrl } from '../validation/url';
import { requireVendorUser } from './vendor-only';

const PATCHABLE = ['webhook_enabled', 'webhook_url'];

export function registerVendorRoutes(router: Router<AuthContext>, sandbox: Sandbox): void {
	router.add('GET', '/v1/vendor', (ctx) => {
		requireVendorUser(ctx.auth);
		const v = sandbox.store.vendor;
		return ok({ type: v.type, webhook_url: v.webhook_url, preferences: { ...v.preferences } });
	});

	router.add('PATCH', '/v1/vendor', (ctx) => {
		requireVendorUser(ctx.auth);
		const body = jsonObjectBody(ctx.body, { allowEmpty: true });
		const unknown = Object.keys(body).filter((k) => !PATCHABLE.includes(k));
		if (unknown.length) throw fail(400, `${unknown.join(', ')} is not a supported field; send webhook_enabled and/or webhook_url`);
		const { webhook_enabled: enabled, webhook_url: url } = body;
		if (enabled !== undefined && typeof enabled !== 'boolean') throw fail(400, 'webhook_enabled is invalid: must be a boolean');
		if (url !== undefined && url !== null && (typeof url !== 'string' || (url !== '' && !isHttpUrl(url)))) {
			throw fail(400, 'webhook_url is invalid: must be an http(s) URL, or "" / null to clear it');
		}
		const vendor = sandbox.store.vendor;
		if (typeof enabled === 'boolean') vendor.preferences.webhook_enabled = enabled;
		if (url !== undefined) vendor.webhook_url = url === '' || url === null ? null : (url as string);
		return ok({});
	});
}
