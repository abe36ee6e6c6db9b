// Item parameters read from each input item, and a row for a seeded item (seedItems: a Chanel tote), shared by
// the item scenarios. The same mapping the integration tests use (test/integration/item-harness.ts).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

export const ITEM_PARAMETERS_FROM_JSON: INodeParameters = {
	vendorSku: '={{ $json.sku }}',
	taxonPermalink: '={{ $json.taxon }}',
	upc: '={{ $json.upc ?? "" }}',
	designer: '={{ $json.designer }}',
	condition: '={{ $json.condition }}',
	withTags: '={{ $json.withTags }}',
	imageFront: '={{ $json.front }}',
	imageBack: '={{ $json.back }}',
	quantity: '={{ $json.quantity }}',
	priceUnit: 'cents',
	msrp: '={{ $json.msrp }}',
	price: '={{ $json.price }}',
	gender: '={{ $json.gender }}',
	taxonSpecificAttributes: '={{ $json.attributes }}',
	additionalFields: {},
};

/** A complete, valid item input for `sku` (what a non-approved item's PATCH and a creation need). */
export function itemRow(sku: string, overrides: IDataObject = {}): IDataObject {
	return {
		sku,
		taxon: 'women/handbags/totes',
		designer: 'Chanel',
		condition: 'Excellent',
		withTags: true,
		front: `https://img.example.com/${sku}/front.jpg`,
		back: `https://img.example.com/${sku}/back.jpg`,
		quantity: 3,
		msrp: 250000,
		price: 129900,
		gender: ['Women'],
		attributes: { color: 'Black', material: ['Leather'] },
		...overrides,
	};
}

/** The price the update scenarios set: an item that has it was updated. */
export const NEW_PRICE = 111100;

/** Items of the sandbox whose vendor_sku starts with `prefix` and whose price is NEW_PRICE. */
export async function countWithNewPrice(admin: { state(): Promise<{ items: Array<{ vendor_sku: string; price: number }> }> }, prefix: string) {
	return (await admin.state()).items.filter((item) => item.vendor_sku.startsWith(prefix) && item.price === NEW_PRICE).length;
}
