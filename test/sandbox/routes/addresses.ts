// /v1/vendor/addresses. Create answers 201 {address}, update and delete 200 {address}; invalid input 400 {error}
// naming every bad field; unknown address 404; updating or deleting an inactive one 409. Delete only marks the
// address inactive. Each create/update/delete, successful or not, sends address_creation (notification_event
// envelope; id null and the messages in errors when it failed).
import type { AuthContext } from '../auth';
import { fail, jsonObjectBody, ok } from '../http';
import { paginate } from '../pagination';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import type { StoredAddress } from '../types';
import { checkAddressInput, type AddressInput } from '../validation/address-input';
import { requireVendorUser } from './vendor-only';

export function addressView(a: StoredAddress) {
	return {
		address_id: String(a.address_id),
		active: a.active,
		name: `${a.first_name} ${a.last_name}`,
		first_name: a.first_name,
		last_name: a.last_name,
		address1: a.address1,
		address2: a.address2,
		city: a.city,
		state_abbr: a.state_abbr,
		zipcode: a.zipcode,
		country_iso: a.country_iso,
		phone: a.phone,
		email: a.email,
		created_at: a.created_at,
		updated_at: a.updated_at,
	};
}

export function registerAddressRoutes(router: Router<AuthContext>, sandbox: Sandbox): void {
	const notify = (id: number | null, errors: string[]) =>
		sandbox.webhooks.notify(
			'address_creation',
			{ timestamp: sandbox.clock.nowIso(), id: id === null ? null : String(id), errors },
			'notification_event',
		);

	const validInput = (body: Record<string, unknown>): AddressInput => {
		const result = checkAddressInput(body);
		if (result.value) return result.value;
		notify(null, result.errors);
		throw fail(400, result.errors.join('; '));
	};

	const existing = (rawId: string, action: string): StoredAddress => {
		const address = /^\d+$/.test(rawId) ? sandbox.store.findAddress(Number(rawId)) : undefined;
		if (!address) throw fail(404, `Address ${rawId} not found`);
		if (!address.active) {
			notify(null, [`address ${rawId} is inactive and cannot be ${action}`]);
			throw fail(409, `Address ${rawId} is inactive; only an active address can be ${action}`);
		}
		return address;
	};

	router.add('GET', '/v1/vendor/addresses', (ctx) => {
		requireVendorUser(ctx.auth);
		const context = sandbox.pageContext('GET /v1/vendor/addresses', ctx.query);
		const { page, page_info } = paginate(sandbox.store.addresses, (a) => a.address_id, context);
		return ok({ addresses: page.map(addressView), page_info });
	});

	router.add('POST', '/v1/vendor/addresses', (ctx) => {
		requireVendorUser(ctx.auth);
		const input = validInput(jsonObjectBody(ctx.body));
		const now = sandbox.clock.nowIso();
		const address: StoredAddress = {
			...input,
			address_id: sandbox.store.allocateAddressId(),
			active: true,
			created_at: now,
			updated_at: now,
		};
		sandbox.store.addresses.push(address);
		notify(address.address_id, []);
		return ok({ address: addressView(address) }, 201);
	});

	router.add('PATCH', '/v1/vendor/addresses/:address_id', (ctx) => {
		requireVendorUser(ctx.auth);
		const address = existing(ctx.params.address_id, 'updated');
		Object.assign(address, validInput(jsonObjectBody(ctx.body)), { updated_at: sandbox.clock.nowIso() });
		notify(address.address_id, []);
		return ok({ address: addressView(address) });
	});

	router.add('DELETE', '/v1/vendor/addresses/:address_id', (ctx) => {
		requireVendorUser(ctx.auth);
		const address = existing(ctx.params.address_id, 'deleted');
		address.active = false;
		address.updated_at = sandbox.clock.nowIso();
		notify(address.address_id, []);
		return ok({ address: addressView(address) });
	});
}
