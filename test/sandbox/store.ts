// The sandbox's mutable data: one vendor, its consignments, items, addresses and orders, plus id counters.
// Everything is in memory; `reset()` on the Sandbox replaces the whole store with a freshly seeded one.
import type {
	SandboxStateSnapshot,
	TokenFormat,
	StoredAddress,
	StoredConsignment,
	StoredItem,
	StoredOrder,
	StoredVendor,
} from './types';

/** item_id and the variant id come from ranges that never overlap, so a client that sends `id` gets a 404. */
export const FIRST_ITEM_ID = 50001;
export const FIRST_VARIANT_ID = 900001;
export const FIRST_ADDRESS_ID = 301;

export class SandboxStore {
	vendor: StoredVendor = {
		type: 'consignment',
		webhook_url: null,
		preferences: { email_enabled: true, webhook_enabled: false },
	};
	items: StoredItem[] = [];
	addresses: StoredAddress[] = [];
	consignments: StoredConsignment[] = [];
	orders: StoredOrder[] = [];
	/** HMAC key for webhook signatures; null = deliveries are unsigned. */
	signingSecret: string | null = null;
	/** Which token response the token endpoint sends (see TokenFormat). */
	tokenFormat: TokenFormat = 'contract';
	/** When true, a new token revokes the client's earlier ones (a service choice the contract leaves open). */
	oneActiveTokenPerClient = false;
	/**
	 * The contract says a non-approved item's PATCH needs every creation field, and also that only changed fields
	 * apply. false (default): a partial body is a 400 naming the missing fields; true: a body of `quantity` and/or
	 * `address_id` only applies them, as to an approved item (any quantity allowed, except raising it from 0).
	 */
	partialPatchOfNonApproved = false;

	private nextItemId = FIRST_ITEM_ID;
	private nextVariantId = FIRST_VARIANT_ID;
	private nextAddressId = FIRST_ADDRESS_ID;
	private nextConsignmentSeq = 1;
	private nextOrderNumber = 1;

	allocateItemIds(): { item_id: number; id: number } {
		return { item_id: this.nextItemId++, id: this.nextVariantId++ };
	}

	allocateAddressId(): number {
		return this.nextAddressId++;
	}

	allocateConsignmentSeq(): number {
		return this.nextConsignmentSeq++;
	}

	allocateOrderSku(): string {
		return `TRR-ORD-${String(this.nextOrderNumber++).padStart(6, '0')}`;
	}

	findItem(itemId: number): StoredItem | undefined {
		return this.items.find((i) => i.item_id === itemId);
	}

	findItemByVendorSku(vendorSku: string): StoredItem | undefined {
		const wanted = vendorSku.toLowerCase();
		return this.items.find((i) => i.vendor_sku.toLowerCase() === wanted);
	}

	findAddress(addressId: number): StoredAddress | undefined {
		return this.addresses.find((a) => a.address_id === addressId);
	}

	findConsignment(id: string): StoredConsignment | undefined {
		return this.consignments.find((c) => c.id === id);
	}

	findOrder(sku: string): StoredOrder | undefined {
		return this.orders.find((o) => o.sku === sku);
	}

	consignmentItemCount(consignmentId: string): number {
		return this.items.filter((i) => i.consignment_id === consignmentId).length;
	}

	snapshot(now: string): SandboxStateSnapshot {
		// A deep copy, so callers in the same process cannot mutate the store by accident.
		return JSON.parse(
			JSON.stringify({
				now,
				vendor: this.vendor,
				items: this.items,
				addresses: this.addresses,
				consignments: this.consignments,
				orders: this.orders,
			}),
		) as SandboxStateSnapshot;
	}
}
