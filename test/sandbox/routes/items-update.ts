// PATCH /v1/items/{item_id} (the item_id, never the variant id). What applies depends on the item's status:
// - not approved: the full creation input is required and every field applies (price too); vendor_sku must stay
//   the same; a rejected item goes back to `pending`; sends successful_item_upload.
// - approved: only address_id and a quantity decrease apply, everything else is ignored; no webhook.
// Quantity can never be raised from 0 (a sold-out item is an inactive record: create a new vendor_sku).
import type { AuthContext } from '../auth';
import { fail, jsonObjectBody, ok } from '../http';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import type { StoredItem } from '../types';
import { checkAddressLink, checkItemInput } from '../validation/item-input';
import { fieldsFromInput, notifyUploaded } from './item-record';
import { requireVendorUser } from './vendor-only';

const RAISE_FROM_ZERO = 'quantity is invalid: cannot be raised from 0; create a new item with a new vendor_sku';

export function registerItemUpdateRoute(router: Router<AuthContext>, sandbox: Sandbox): void {
	router.add('PATCH', '/v1/items/:item_id', (ctx) => {
		requireVendorUser(ctx.auth);
		const rawId = ctx.params.item_id;
		const item = /^\d+$/.test(rawId) ? sandbox.store.findItem(Number(rawId)) : undefined;
		if (!item) throw fail(404, `Item ${rawId} not found`);
		const body = jsonObjectBody(ctx.body);
		if (item.validation_status === 'approved') updateApproved(sandbox, item, body);
		else updateNonApproved(sandbox, item, body);
		return ok({ id: String(item.item_id), status: 'updated' });
	});
}

function updateApproved(sandbox: Sandbox, item: StoredItem, body: Record<string, unknown>): void {
	const errors: string[] = [];
	let quantity: number | undefined;
	let addressId: number | undefined;
	if (body.quantity !== undefined) {
		const q = body.quantity;
		if (typeof q !== 'number' || !Number.isInteger(q) || q < 0) errors.push('quantity is invalid: must be an integer >= 0');
		else if (q > item.quantity) {
			errors.push(
				item.quantity === 0
					? RAISE_FROM_ZERO
					: `quantity is invalid: can only be decreased on an approved item (current quantity ${item.quantity})`,
			);
		} else quantity = q;
	}
	if (body.address_id !== undefined && body.address_id !== null) {
		const link = checkAddressLink(body.address_id, sandbox.store);
		errors.push(...link.errors);
		addressId = link.value;
	}
	if (errors.length) throw fail(400, errors.join('; '));
	if (quantity !== undefined) item.quantity = quantity;
	if (addressId !== undefined) item.address_id = addressId;
	item.updated_at = sandbox.clock.nowIso();
}

/** The fields the knob `partialPatchOfNonApproved` lets a non-approved PATCH send alone. */
const PARTIAL_FIELDS = ['quantity', 'address_id'];

function updateNonApproved(sandbox: Sandbox, item: StoredItem, body: Record<string, unknown>): void {
	const keys = Object.keys(body);
	if (sandbox.store.partialPatchOfNonApproved && keys.length > 0 && keys.every((key) => PARTIAL_FIELDS.includes(key))) {
		updatePartially(sandbox, item, body);
		return;
	}
	const result = checkItemInput(body, sandbox.store, 0);
	const input = result.value;
	if (input && input.vendor_sku.toLowerCase() !== item.vendor_sku.toLowerCase()) {
		result.errors.push(`vendor_sku is invalid: cannot be changed (this item is ${item.vendor_sku})`);
	}
	if (input && item.quantity === 0 && input.quantity > 0) result.errors.push(RAISE_FROM_ZERO);
	if (result.errors.length || !input) throw fail(400, result.errors.join('; '));

	const now = sandbox.clock.nowIso();
	Object.assign(item, { ...fieldsFromInput(input), updated_at: now });
	if (body.address_id !== undefined && body.address_id !== null) item.address_id = input.address_id;
	if (item.validation_status === 'rejected') item.validation_status = 'pending';
	notifyUploaded(sandbox, item, now);
}

function updatePartially(sandbox: Sandbox, item: StoredItem, body: Record<string, unknown>): void {
	const errors: string[] = [];
	const q = body.quantity;
	if (q !== undefined && (typeof q !== 'number' || !Number.isInteger(q) || q < 0)) errors.push('quantity is invalid: must be an integer >= 0');
	else if (typeof q === 'number' && item.quantity === 0 && q > 0) errors.push(RAISE_FROM_ZERO);
	const link = body.address_id !== undefined && body.address_id !== null ? checkAddressLink(body.address_id, sandbox.store) : undefined;
	errors.push(...(link?.errors ?? []));
	if (errors.length) throw fail(400, errors.join('; '));
	const now = sandbox.clock.nowIso();
	if (typeof q === 'number') item.quantity = q;
	if (link?.value !== undefined) item.address_id = link.value;
	item.updated_at = now;
	if (item.validation_status === 'rejected') item.validation_status = 'pending';
	notifyUploaded(sandbox, item, now);
}
