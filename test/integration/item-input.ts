// The item parameters read from each input item and a valid input row: shared by the item integration suites and
// the bench (no jest or sandbox here, so the bench's client process can import it).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

/** Item parameters whose values come from each input item (`$json.<field>`), with valid defaults in `validItem`. */
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

/** One valid input row for the sandbox's catalog. */
export function validItem(sku: string, overrides: IDataObject = {}): IDataObject {
	return {
		sku,
		taxon: 'women/handbags/totes',
		designer: 'Chanel',
		condition: 'Excellent',
		withTags: true,
		front: `https://img.example.com/${sku}/front.jpg`,
		back: `https://img.example.com/${sku}/back.jpg`,
		quantity: 2,
		msrp: 250000,
		price: 129900,
		gender: ['Women'],
		attributes: { color: 'Black', material: ['Leather'] },
		...overrides,
	};
}
