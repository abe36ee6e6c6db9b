// The item parameters read from each input item, a valid input row and the contract body it becomes: shared by the
// unit, contract, integration and e2e suites and the bench (no jest or sandbox here, so the bench's client process
// and the e2e runner can import it).
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

/** Item → Create or Create or Update into the sandbox's consignment, the row fields from each input item. */
export function itemWriteParameters(operation: 'create' | 'upsert', extra: INodeParameters = {}): INodeParameters {
	return { resource: 'item', operation, consignmentId: { __rl: true, mode: 'id', value: 'cons_12345' }, ...ITEM_PARAMETERS_FROM_JSON, ...extra };
}

/** One valid input row for the sandbox's catalog: `validItemBody(sku)` under the names ITEM_PARAMETERS_FROM_JSON reads. */
export function validItem(sku: string, overrides: IDataObject = {}): IDataObject {
	const body = validItemBody(sku);
	const { front, back } = body.image as { front: string; back: string };
	return {
		sku,
		taxon: body.taxon_permalink,
		designer: body.designer,
		condition: body.condition,
		withTags: body.with_tags,
		front,
		back,
		quantity: body.quantity,
		msrp: body.msrp,
		price: body.price,
		gender: body.gender,
		attributes: body.taxon_specific_attributes,
		...overrides,
	};
}

/** The contract's creation body for `validItem(sku)` (prices in cents): what the node sends for that row. */
export function validItemBody(sku: string, overrides: IDataObject = {}): IDataObject {
	return {
		vendor_sku: sku,
		taxon_permalink: 'women/handbags/totes',
		condition: 'Excellent',
		with_tags: true,
		designer: 'Chanel',
		image: { front: `https://img.example.com/${sku}/front.jpg`, back: `https://img.example.com/${sku}/back.jpg` },
		quantity: 2,
		msrp: 250000,
		price: 129900,
		gender: ['Women'],
		taxon_specific_attributes: { color: 'Black', material: ['Leather'] },
		...overrides,
	};
}

/** `validItemBody(sku)` as a sheet row with contract-named columns (image as two), for Map Automatically. */
export function contractColumnsRow(sku: string, overrides: IDataObject = {}): IDataObject {
	const { image, ...fields } = validItemBody(sku);
	const { front, back } = image as { front: string; back: string };
	return { ...fields, image_front: front, image_back: back, ...overrides };
}

/** A `validItem`-shaped row (the names ITEM_PARAMETERS_FROM_JSON reads) with contract-named columns, for Map Automatically. */
export function asContractColumns(row: IDataObject): IDataObject {
	return {
		vendor_sku: row.sku,
		taxon_permalink: row.taxon,
		designer: row.designer,
		condition: row.condition,
		with_tags: row.withTags,
		image_front: row.front,
		image_back: row.back,
		quantity: row.quantity,
		msrp: row.msrp,
		price: row.price,
		gender: row.gender,
		taxon_specific_attributes: row.attributes,
	};
}
