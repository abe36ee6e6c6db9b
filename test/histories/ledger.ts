// Who last wrote each item at the service, and what: the ground truth some invariants need ("the node knew the
// service held these values", "someone else changed it less than 6 hours ago"). Read from the sandbox's request log.
import type { IDataObject } from 'n8n-workflow';

import type { RequestLogEntry, SandboxStateSnapshot } from '../sandbox';
import { skuIdentity } from './rows';

export interface LastWrite {
	/** The node's key (workflow, node id, name), 'outside' (the portal) or 'overlapping runs' (not attributable). */
	by: string;
	at: number;
	/** The fields the write set. */
	values: IDataObject;
	/** False when its answer was lost: the writer cannot know the service holds these values. */
	answered?: boolean;
	/**
	 * Whether the writer kept what it wrote (Create or Update with Only Send What Changed on): a node that wrote with
	 * the option off has no memory of it once the option is turned on (the option's description says so).
	 */
	remembered?: boolean;
}

/** Values compared as the service stores them (a SKU's case aside). */
export function sameValues(sent: IDataObject, stored: IDataObject): boolean {
	return Object.entries(sent).every(([field, value]) => {
		// The service stores a creation's taxon_permalink as taxon.
		const held = field in stored ? stored[field] : stored[field === 'taxon_permalink' ? 'taxon' : field];
		if (field === 'vendor_sku') return skuIdentity(value) === skuIdentity(held);
		// An empty UPC or address is stored as null; an address id is sent as text and stored as a number.
		if (field === 'upc' || field === 'address_id') return String(value ?? '') === String(held ?? '');
		return JSON.stringify(value) === JSON.stringify(held);
	});
}

const isSuccess = (request: RequestLogEntry) => request.status >= 200 && request.status < 300;
const itemIdOfPatch = (request: RequestLogEntry) => /^\/v1\/items\/(\d+)$/.exec(request.path)?.[1];

export class WriteLedger {
	private readonly last = new Map<number, LastWrite>();

	get(itemId: number): LastWrite | undefined {
		return this.last.get(itemId);
	}

	set(itemId: number, write: LastWrite): void {
		const earlier = this.last.get(itemId);
		// A PATCH with part of the fields (an approved item's quantity) keeps what the last full write set.
		this.last.set(itemId, earlier && earlier.by === write.by ? { ...write, values: { ...earlier.values, ...write.values } } : write);
	}

	/** Every write the service carried out among `requests`, made by `by`. */
	record(requests: RequestLogEntry[], after: SandboxStateSnapshot, by: string, at: number, remembered: boolean): void {
		for (const request of requests.filter(isSuccess)) {
			const body = (request.body ?? {}) as IDataObject;
			// The only latency fault a history injects is the lost answer's (runs.ts).
			const answered = request.fault !== 'latency';
			if (request.method === 'POST' && request.path.startsWith('/v1/consignments/')) {
				for (const sent of (body.items as IDataObject[] | undefined) ?? []) {
					const item = after.items.find((candidate) => skuIdentity(candidate.vendor_sku) === skuIdentity(sent.vendor_sku));
					if (item) this.set(item.item_id, { by, at, values: sent, answered, remembered });
				}
			}
			const itemId = request.method === 'PATCH' ? itemIdOfPatch(request) : undefined;
			if (itemId !== undefined) this.set(Number(itemId), { by, at, values: body, answered, remembered });
		}
	}
}
