// How an item creation input becomes a stored item. POST .../items creates one from it; the PATCH of a
// non-approved item takes the full input again and overwrites the same fields. Both then send
// successful_item_upload.
import type { Sandbox } from '../sandbox';
import type { StoredItem } from '../types';
import type { ItemInput } from '../validation/item-input';

export function describeItem(input: Pick<ItemInput, 'designer' | 'taxon_permalink' | 'taxon_specific_attributes'>): string {
	const kind = input.taxon_permalink.split('/').pop()?.replace(/-/g, ' ');
	const note = input.taxon_specific_attributes['condition-description'];
	return `${input.designer} ${kind}${typeof note === 'string' && note ? ` - ${note}` : ''}`;
}

/**
 * The stored fields the input decides on both paths. Left out: vendor_sku (a PATCH may not change it) and
 * address_id (a PATCH that omits it keeps the linked address).
 */
export function fieldsFromInput(input: ItemInput) {
	return {
		upc: input.upc,
		description: describeItem(input),
		designer: input.designer,
		condition: input.condition,
		taxon: input.taxon_permalink,
		with_tags: input.with_tags,
		image: input.image,
		quantity: input.quantity,
		msrp: input.msrp,
		price: input.price,
		gender: input.gender,
		taxon_specific_attributes: input.taxon_specific_attributes,
		designer_specific_attributes: input.designer_specific_attributes,
	} satisfies Partial<StoredItem>;
}

export function notifyUploaded(sandbox: Sandbox, item: StoredItem, timestamp: string): void {
	sandbox.webhooks.notify('successful_item_upload', {
		vendor_sku: item.vendor_sku,
		item_id: item.item_id,
		consignment_id: item.consignment_id,
		timestamp,
		errors: [],
	});
}
